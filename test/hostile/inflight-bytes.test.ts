/**
 * A request that is still running keeps its parsed body in memory, so one client
 * holding many (2026-07-28 `subscriptions/listen` streams, tools waiting for
 * input) could grow the heap without bound: measured on the demo, 40 listen
 * requests of 3.9 MB each held 3.4 GB. Request bytes in flight are now bounded
 * per client (principal, else remote address) on every adapter: 429 with
 * -32600, and other clients are unaffected. Real servers on 127.0.0.1;
 * a second client on 127.0.0.2.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../transports/http/fixtures.js';
import type { TestServer } from '../transports/http/support.js';
import { ADAPTERS, requestFrom, type RawResponse } from './sessions-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'review', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 tools/call padded to about `padding` bytes; its JSON text is what the server counts. */
function call(id: number, tool: string, args: Record<string, unknown>, padding: number): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args, pad: 'x'.repeat(padding), _meta: META } });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': tool,
    },
  };
}

function send(url: string, message: { body: string; headers: Record<string, string> }, localAddress = '127.0.0.1'): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', localAddress, agent: false, headers: message.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(message.body);
  });
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

describe.each(ADAPTERS)('request bytes in flight per client (%s adapter)', (_name, start) => {
  it('refuses a client whose running requests hold the limit (429, -32600), serves another client, and frees on completion', async () => {
    const { server: mcp, gates } = buildServer();
    server = await start(mcp, { limits: { maxInflightBytesPerClient: 20_000 } });
    const first = call(1, 'wait', { gate: 'a' }, 8_000);
    const second = call(2, 'wait', { gate: 'b' }, 8_000);
    const answers = [send(server.url, first), send(server.url, second)];
    await until(() => gates.waiting('a') && gates.waiting('b'));

    const third = call(3, 'echo', { text: 'hi' }, 8_000);
    const refused = await send(server.url, third);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    const held = first.body.length + second.body.length;
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32600,
        message:
          `Too many requests in flight: this client's running requests already hold ${held} bytes of request bodies, and this one ` +
          `(${third.body.length} bytes) would pass the limit of 20000 (maxInflightBytesPerClient); wait for their answers, or close streams you no longer read`,
      },
    });

    // Another client is not affected.
    const other = await send(server.url, third, '127.0.0.2');
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body)).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'hi' }] } });

    gates.open('a');
    expect((await answers[0]!).status).toBe(200);
    const again = await send(server.url, third);
    expect(again.status).toBe(200);
    gates.open('b');
    expect((await answers[1]!).status).toBe(200);
  });

  it('admits one request of any size when the client has nothing in flight', async () => {
    server = await start(buildServer().server, { limits: { maxInflightBytesPerClient: 1_000 } });
    for (let i = 0; i < 3; i++) {
      const answer = await send(server.url, call(i, 'echo', { text: 'big' }, 5_000));
      expect(answer.status).toBe(200);
    }
  });

  it('also counts legacy sessions: a held session request is charged to its client', async () => {
    const { server: mcp, gates } = buildServer();
    server = await start(mcp, { limits: { maxInflightBytesPerClient: 20_000 } });
    const opened = await requestFrom(server.url, {
      body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'r', version: '1' } } },
    });
    const session = opened.headers['mcp-session-id'] as string;
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const held = { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: { gate: 'c' }, pad: 'x'.repeat(15_000) } }), headers };
    const answer = send(server.url, held);
    await until(() => gates.waiting('c'));
    const next = { body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, pad: 'x'.repeat(8_000) } }), headers };
    const refused = await send(server.url, next);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ id: 2, error: { code: -32600, message: expect.stringMatching(/^Too many requests in flight/) } });
    gates.open('c');
    expect((await answer).status).toBe(200);
    expect((await send(server.url, next)).status).toBe(200);
  });
});
