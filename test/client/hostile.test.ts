/**
 * A hostile server: whatever it answers (garbage, wrong ids, the wrong shapes,
 * truncated streams, oversized bodies), the request it answered fails or
 * succeeds cleanly, nothing escapes as an unhandled rejection, and the client
 * keeps working for the next request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, McpError, McpTransportError, StreamableHttpTransport } from '../../src/client.js';

interface Answer {
  status: number;
  type: string;
  body: string;
}

let next: (request: { id: unknown; method: string }) => Answer;
let server: http.Server;
let url: string;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let message: { id?: unknown; method?: string } = {};
      try {
        message = JSON.parse(body) as typeof message;
      } catch {
        // answered below like anything else
      }
      if (message.id === undefined) return void res.writeHead(202).end();
      const answer = message.method === 'server/discover' ? good(message.id, { supportedVersions: ['2026-07-28'], capabilities: {} }) : next({ id: message.id, method: message.method ?? '' });
      res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await new Promise((resolve) => server.close(resolve));
});

function good(id: unknown, result: unknown): Answer {
  return { status: 200, type: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id, result }) };
}

const json = fc.jsonValue({ maxDepth: 4 });
/** What a hostile server may send for a request with this id. */
const hostile = fc.oneof(
  fc.string().map((body) => () => ({ status: 200, type: 'application/json', body })),
  json.map((value) => () => ({ status: 200, type: 'application/json', body: JSON.stringify(value) })),
  json.map((result) => (id: unknown) => ({ status: 200, type: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id, result }) })),
  fc.record({ code: fc.oneof(fc.integer(), fc.double()), message: fc.oneof(fc.string(), fc.integer()), data: json }).map((error) => (id: unknown) => ({ status: 200, type: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id, error }) })),
  fc.jsonValue().map((id) => () => ({ status: 200, type: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id, result: {} }) })),
  fc.array(fc.string(), { maxLength: 5 }).map((lines) => (id: unknown) => ({ status: 200, type: 'text/event-stream', body: `${lines.join('\n')}\n\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: {} }).slice(0, 20)}` })),
  fc.integer({ min: 400, max: 599 }).chain((status) => fc.string().map((body) => () => ({ status, type: 'text/plain', body }))),
  fc.constant(() => ({ status: 200, type: 'application/json', body: 'x'.repeat(70_000) })),
);

describe('a hostile Streamable HTTP server', () => {
  // node:http is the default engine on Node; a caller's fetch takes the fetch engine.
  const engines = { 'node:http': {}, fetch: { fetch: (input: string | URL, init: RequestInit) => fetch(input, init) } };
  it.each([
    ['2025-11-25', 'node:http'],
    ['2026-07-28', 'node:http'],
    ['2025-11-25', 'fetch'],
    ['2026-07-28', 'fetch'],
  ] as const)('never crashes the %s client (%s), which keeps working', async (version, engine) => {
    next = ({ id, method }) => (method === 'initialize' ? good(id, { protocolVersion: version, capabilities: {}, serverInfo: { name: 'h', version: '1' } }) : good(id, {}));
    const client = new Client({ protocolVersion: version, requestTimeoutMs: 2000, onWarning: () => undefined });
    await client.connect(new StreamableHttpTransport(url, { ...engines[engine], maxMessageBytes: 65_536, openGetStream: false, reconnect: { maxAttempts: 0 } }));
    await fc.assert(
      fc.asyncProperty(hostile, async (answer) => {
        next = ({ id }) => answer(id);
        // An answer with no usable id never settles the request: its timeout does (that is the client's bound, not an assertion).
        const outcome = await client.request('tools/list', {}, { timeoutMs: 50 }).then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        if (!outcome.ok) expect(outcome.error instanceof McpError || outcome.error instanceof McpTransportError).toBe(true);
        else expect(typeof outcome.result).toBe('object');
        next = ({ id }) => good(id, { tools: [] });
        await expect(client.listTools({ cache: false })).resolves.toMatchObject({ tools: [] });
      }),
      { numRuns: 100 },
    );
    await client.close();
    expect(unhandled).toEqual([]);
  }, 60_000);
});
