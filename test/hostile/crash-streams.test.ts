/**
 * Streams: once an SSE answer has started, a result that cannot be serialised arrives as a
 * -32603 event for that request (the status was already sent), on every adapter; and the
 * empty-data priming event is sent only to sessions whose revision defines it (2025-11-25).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/server.js';
import { initializeBody, post, readEvents, rpc, startFetch, startNode, type SseEvent, type TestServer } from '../transports/http/support.js';
import { checkOutgoing } from '../support/wire.js';
import { startExpress } from './crash-support.js';

type Json = Record<string, unknown>;

function buildServer(): McpServer {
  const server = new McpServer({ name: 'streams', version: '1.0.0', logger: { error: () => undefined, warn: () => undefined } });
  server.tool('progress_then_bigint', { description: 'Reports progress, then returns a BigInt', input: { type: 'object' } }, async (_input, ctx) => {
    await ctx.progress(1, 2);
    return { content: [{ type: 'text', text: 'never' }], structuredContent: { n: 1n } };
  });
  return server;
}

const running: TestServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

const adapters: [string, (server: McpServer) => Promise<TestServer>][] = [
  ['node', (server) => startNode(server)],
  ['fetch', (server) => startFetch(server)],
  ['express', (server) => startExpress(server, { stateless: false })],
];

/** initialize + initialized at `version`; the session id. */
async function session(url: string, version: string): Promise<string> {
  const response = await post(url, initializeBody(0, version));
  await response.text();
  const id = response.headers.get('mcp-session-id')!;
  await (await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id, 'mcp-protocol-version': version })).text();
  return id;
}

const isPriming = (event: SseEvent): boolean => event.id !== undefined && event.data === '';

describe.each(adapters)('%s adapter', (_name, start) => {
  it('sends a -32603 event for the request when its result cannot be serialised on an open stream', async () => {
    const server = await start(buildServer());
    running.push(server);
    const id = await session(server.url, '2025-11-25');
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
    const response = await post(server.url, rpc(1, 'tools/call', { name: 'progress_then_bigint', arguments: {}, _meta: { progressToken: 't' } }), headers);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const data = (await readEvents(response)).filter((e) => e.data !== '').map((e) => JSON.parse(e.data) as Json);
    for (const message of data) checkOutgoing(message, '2025-11-25', () => 'tools/call');
    expect(data).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1, total: 2 } },
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error: the response could not be serialised as JSON' } },
    ]);
    // The session goes on.
    const ping = await post(server.url, rpc(2, 'ping'), headers);
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });
});

describe.each(adapters.slice(0, 2))('%s adapter: the priming event', (_name, start) => {
  it.each([
    ['2025-03-26', false],
    ['2025-06-18', false],
    ['2025-11-25', true],
  ])('a %s session primes its POST and GET streams: %s', async (version, primed) => {
    const mcp = buildServer();
    const server = await start(mcp);
    running.push(server);
    const id = await session(server.url, version);
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': version };
    const response = await post(server.url, rpc(1, 'tools/call', { name: 'progress_then_bigint', arguments: {}, _meta: { progressToken: 1 } }), headers);
    const events = await readEvents(response);
    expect(isPriming(events[0]!)).toBe(primed);
    expect(events.filter(isPriming)).toHaveLength(primed ? 1 : 0);

    const get = await fetch(server.url, { headers: { accept: 'text/event-stream', ...headers } });
    expect(get.status).toBe(200);
    // A change the session hears about: the first event of the stream is either the priming event or this.
    mcp.tool('added_later', { description: 'New', input: { type: 'object' } }, () => 'x');
    const first = await readEvents(get, () => true);
    expect(first).toHaveLength(1);
    if (primed) expect(isPriming(first[0]!)).toBe(true);
    else expect(JSON.parse(first[0]!.data)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  });
});
