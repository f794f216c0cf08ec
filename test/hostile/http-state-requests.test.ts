/**
 * A session cannot pile up unlimited running requests on Streamable HTTP:
 * beyond `maxRequestsPerSession` a POST carrying a request gets 429, while
 * notifications and responses (an elicitation answer) always get through, and
 * other sessions are unaffected. Node, fetch and express adapters.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../transports/http/fixtures.js';
import { eventually, messages, post, PROTOCOL, readEvents, rpc, sessionHeaders, type TestServer } from '../transports/http/support.js';
import { ADAPTERS } from './sessions-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function openSession(url: string, capabilities: Record<string, unknown> = {}): Promise<string> {
  const response = await post(url, rpc(0, 'initialize', { protocolVersion: PROTOCOL, capabilities, clientInfo: { name: 'hostile', version: '1' } }));
  const id = response.headers.get('mcp-session-id')!;
  await response.text();
  expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(id))).status).toBe(202);
  return id;
}

const waitCall = (id: number, gate: string): unknown => rpc(id, 'tools/call', { name: 'wait', arguments: { gate } });

describe.each(ADAPTERS)('requests running per session (%s adapter)', (_name, start) => {
  it('answers 429 beyond maxRequestsPerSession; notifications pass; other sessions go on; the session recovers', async () => {
    const { server: mcp, gates } = buildServer();
    server = await start(mcp, { limits: { maxRequestsPerSession: 2 } });
    const session = await openSession(server.url);
    const running = [post(server.url, waitCall(1, 'r1'), sessionHeaders(session)), post(server.url, waitCall(2, 'r2'), sessionHeaders(session))];
    await eventually(() => gates.waiting('r1') && gates.waiting('r2'));

    const refused = await post(server.url, waitCall(3, 'r3'), sessionHeaders(session));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32600,
        message: 'Too many requests: this session already has 2 requests (maxRequestsPerSession) running; wait for their responses before sending more',
      },
    });
    const batch = await post(server.url, [rpc(4, 'ping')], sessionHeaders(session));
    expect(batch.status).toBe(429);
    await batch.text();
    const notification = await post(server.url, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, sessionHeaders(session));
    expect(notification.status).toBe(202);

    const other = await openSession(server.url);
    const elsewhere = await post(server.url, rpc(5, 'ping'), sessionHeaders(other));
    expect(elsewhere.status).toBe(200);
    await elsewhere.text();

    gates.open('r1');
    gates.open('r2');
    for (const response of await Promise.all(running)) expect(response.status).toBe(200);
    const again = await post(server.url, rpc(6, 'ping'), sessionHeaders(session));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
  });

  it('lets the answer to an elicitation through while the session is at its limit', async () => {
    const { server: mcp } = buildServer();
    server = await start(mcp, { limits: { maxRequestsPerSession: 1 } });
    const session = await openSession(server.url, { elicitation: {} });
    const call = await post(server.url, rpc(1, 'tools/call', { name: 'elicit', arguments: {} }), sessionHeaders(session));
    expect(call.headers.get('content-type')).toBe('text/event-stream');
    const events = await readEvents(call, (event) => {
      const message = JSON.parse(event.data === '' ? 'null' : event.data) as { method?: string; id?: number } | null;
      if (message?.method === 'elicitation/create') {
        void post(server!.url, { jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { name: 'Ada' } } }, sessionHeaders(session)).then(
          (answer) => expect(answer.status).toBe(202),
        );
      }
      return message !== null && message.id === 1 && message.method === undefined;
    });
    expect(messages(events).at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hello Ada' }] } });
  });
});
