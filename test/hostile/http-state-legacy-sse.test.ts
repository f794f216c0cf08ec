/**
 * Legacy HTTP+SSE answers 202 before a request runs, so a session could pile
 * up unlimited work: requests in flight are bounded per session, by count and
 * by bytes, with a 429 a person can act on; other sessions are unaffected and
 * the session recovers once its requests finish. Node and fetch adapters.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, type Gates } from '../transports/http/fixtures.js';
import { eventually, post, startFetch, startNode, type TestServer } from '../transports/http/support.js';
import type { Start } from './sessions-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } } };
const waitCall = (id: number, gate: string, padding = ''): unknown => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'wait', arguments: { gate }, _meta: { padding } },
});

interface LegacyClient {
  endpoint: string;
  /** Ids of the responses the stream delivered so far. */
  answered: Set<number>;
  close(): void;
}

async function connect(url: string): Promise<LegacyClient> {
  const controller = new AbortController();
  const response = await fetch(new URL('/sse', url), { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value);
  const endpoint = new URL(/data: (\S+)/.exec(text)![1]!, url).toString();
  const answered = new Set<number>();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
        for (const match of text.matchAll(/data: (\{.*\})\n/g)) {
          const message = JSON.parse(match[1]!) as { id?: number; method?: string };
          if (typeof message.id === 'number' && message.method === undefined) answered.add(message.id);
        }
      }
    } catch {
      // closed by the test
    }
  })();
  expect((await post(endpoint, initialize)).status).toBe(202);
  expect((await post(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  await eventually(() => answered.has(0));
  return { endpoint, answered, close: () => controller.abort() };
}

async function expectTooMany(response: Response, what: string): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe('1');
  expect(await response.json()).toEqual({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message: `Too many requests: this session already has ${what} running; wait for their responses on the SSE stream before sending more`,
    },
  });
}

async function started(gates: Gates, names: string[]): Promise<void> {
  await eventually(() => names.every((name) => gates.waiting(name)));
}

const adapters: [string, Start][] = [
  ['node', startNode],
  ['fetch', startFetch],
];

describe.each(adapters)('legacy SSE requests in flight (%s adapter)', (_name, start) => {
  it('bounds the count per session with 429; other sessions go on; the session recovers when they finish', async () => {
    const { server: mcp, gates } = buildServer();
    server = await start(mcp, { legacySse: true, limits: { maxRequestsPerSession: 3 } });
    const client = await connect(server.url);
    for (let i = 1; i <= 3; i++) expect((await post(client.endpoint, waitCall(i, `c${i}`))).status).toBe(202);
    await started(gates, ['c1', 'c2', 'c3']);
    await expectTooMany(await post(client.endpoint, waitCall(4, 'c4')), '3 requests (maxRequestsPerSession)');

    const other = await connect(server.url);
    expect((await post(other.endpoint, waitCall(1, 'o1'))).status).toBe(202);

    for (const name of ['c1', 'c2', 'c3', 'o1']) gates.open(name);
    await eventually(() => [1, 2, 3].every((id) => client.answered.has(id)) && other.answered.has(1));
    await eventually(async () => (await post(client.endpoint, { jsonrpc: '2.0', id: 5, method: 'ping' })).status === 202);
    await eventually(() => client.answered.has(5));
    client.close();
    other.close();
  });

  it('bounds the bytes of request bodies per session with 429', async () => {
    const { server: mcp, gates } = buildServer();
    server = await start(mcp, { legacySse: { maxInflightBytes: 40_000 } });
    const client = await connect(server.url);
    const padding = 'p'.repeat(15_000);
    expect((await post(client.endpoint, waitCall(1, 'b1', padding))).status).toBe(202);
    expect((await post(client.endpoint, waitCall(2, 'b2', padding))).status).toBe(202);
    await started(gates, ['b1', 'b2']);
    await expectTooMany(await post(client.endpoint, waitCall(3, 'b3', padding)), '40000 bytes of requests (legacySse.maxInflightBytes)');
    // A small request still fits.
    expect((await post(client.endpoint, { jsonrpc: '2.0', id: 4, method: 'ping' })).status).toBe(202);
    gates.open('b1');
    gates.open('b2');
    await eventually(() => client.answered.has(1) && client.answered.has(2) && client.answered.has(4));
    expect((await post(client.endpoint, waitCall(6, 'b6', padding))).status).toBe(202);
    gates.open('b6');
    await eventually(() => client.answered.has(6));
    client.close();
  });

  it('rejects a limit that is not a positive number at construction', async () => {
    await expect(start(buildServer().server, { legacySse: { maxInflightBytes: 0 } })).rejects.toThrow(/legacySse.maxInflightBytes must be a positive number/);
    await expect(start(buildServer().server, { limits: { maxRequestsPerSession: Number.NaN } })).rejects.toThrow(/maxRequestsPerSession must be a positive number/);
  });
});
