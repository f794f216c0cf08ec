/**
 * A large answer written in parts (src/jsonrpc/json-parts.ts): the parts joined are JSON.stringify's
 * bytes for any result around the long array, presets spliced; over HTTP (node and fetch adapters)
 * such a body is chunked and read back whole; an answer of one part keeps its Content-Length; an
 * item that cannot be serialised in the first part is a 500, past it a closed connection, and the
 * server goes on serving.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeJsonAnswer, PARTS_MIN_ITEMS } from '../../src/jsonrpc/json-parts.js';
import type { JsonRpcResponse } from '../../src/jsonrpc/message.js';
import { presetJson } from '../../src/jsonrpc/preset-json.js';
import { McpServer } from '../../src/index.js';
import { initializeBody, post, postHeaders, sessionHeaders, startFetch, startNode, type TestServer } from '../transports/http/support.js';

function joined(body: ReturnType<typeof encodeJsonAnswer>): { text: string; parts: number } {
  if (typeof body === 'string') return { text: body, parts: 1 };
  if (body instanceof Uint8Array) return { text: new TextDecoder().decode(body), parts: 1 };
  const parts: string[] = [];
  for (let part = body.next(); part !== undefined; part = body.next()) parts.push(part);
  return { text: parts.join(''), parts: parts.length };
}

const shared = presetJson({ type: 'object', description: 'geteilt «ü»', properties: { a: { enum: [1, null, 'é'] } } });

describe('JSON answers in parts', () => {
  it('writes exactly what JSON.stringify writes, for any result around a long array (property)', () => {
    const item = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constant(undefined),
      fc.constant(shared),
      fc.record({ name: fc.string(), schema: fc.constant(shared), text: fc.string({ unit: 'grapheme', maxLength: 600 }) }),
    );
    fc.assert(
      fc.property(
        fc.array(item, { minLength: PARTS_MIN_ITEMS, maxLength: 400 }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        fc.constantFrom('tools', 'contents', 'items'),
        (items, around, key) => {
          const response = { jsonrpc: '2.0', id: 7, result: { ...around, [key]: items, nextCursor: 'c' } } as unknown as JsonRpcResponse;
          expect(joined(encodeJsonAnswer(response)).text).toBe(JSON.stringify(response));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('makes parts only for a body larger than one part; short arrays and errors are written whole', () => {
    const big = { jsonrpc: '2.0', id: 1, result: { tools: Array.from({ length: 1000 }, (_, i) => ({ name: `tool_${i}`, description: 'x'.repeat(200), inputSchema: shared })) } } as JsonRpcResponse;
    const many = joined(encodeJsonAnswer(big));
    expect(many.parts).toBeGreaterThan(3);
    expect(many.text).toBe(JSON.stringify(big));
    const small = { jsonrpc: '2.0', id: 2, result: { tools: Array.from({ length: 200 }, (_, i) => i) } } as JsonRpcResponse;
    expect(typeof encodeJsonAnswer(small)).toBe('string'); // one part: a plain body, with its length
    expect(typeof encodeJsonAnswer({ jsonrpc: '2.0', id: 3, result: { tools: [1, 2] } })).toBe('string');
    expect(typeof encodeJsonAnswer({ jsonrpc: '2.0', id: 4, error: { code: -1, message: 'no' } })).toBe('string');
  });

  it('writes what JSON.stringify writes for a toJSON on the array (its class, Array.prototype) and one on items that reads its key', () => {
    const long = (): { i: number; t: string }[] => Array.from({ length: 300 }, (_, i) => ({ i, t: 'x'.repeat(400) }));
    class Listing extends Array<unknown> {
      toJSON(): string {
        return 'a listing';
      }
    }
    const subclassed = { jsonrpc: '2.0', id: 1, result: { tools: Listing.from(long()) } } as unknown as JsonRpcResponse;
    expect(joined(encodeJsonAnswer(subclassed)).text).toBe(JSON.stringify(subclassed));
    const polluted = { jsonrpc: '2.0', id: 2, result: { tools: long() } } as unknown as JsonRpcResponse;
    Object.defineProperty(Array.prototype, 'toJSON', { value: function (this: unknown[]) { return this.length; }, configurable: true, writable: true });
    try {
      expect(joined(encodeJsonAnswer(polluted)).text).toBe(JSON.stringify(polluted));
    } finally {
      delete (Array.prototype as { toJSON?: unknown }).toJSON;
    }
    const keyed = { jsonrpc: '2.0', id: 3, result: { tools: long().map((x, i) => ({ ...x, toJSON: (key: string) => (i === 7 ? undefined : { key, t: x.t, at: shared }) })) } } as unknown as JsonRpcResponse;
    const parts = joined(encodeJsonAnswer(keyed));
    expect(parts.parts).toBeGreaterThan(1);
    expect(parts.text).toBe(JSON.stringify(keyed));
  });

  it('throws in the first part (a 500 before anything is sent), and from next() past it', () => {
    const early = { jsonrpc: '2.0', id: 1, result: { items: [10n, ...Array.from({ length: 200 }, () => 'x'.repeat(500))] } } as unknown as JsonRpcResponse;
    expect(() => encodeJsonAnswer(early)).toThrow(TypeError);
    const late = { jsonrpc: '2.0', id: 1, result: { items: [...Array.from({ length: 200 }, () => 'x'.repeat(500)), 10n] } } as unknown as JsonRpcResponse;
    const parts = encodeJsonAnswer(late);
    expect(typeof parts === 'object' && !(parts instanceof Uint8Array)).toBe(true); // more than one part
    expect(() => joined(parts)).toThrow(TypeError);
  });
});

describe.each([
  ['node', startNode],
  ['fetch', startFetch],
] as const)('over HTTP (%s adapter)', (_name, start) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  function catalogue(): McpServer {
    const mcp = new McpServer({ name: 'many', version: '1.0.0' });
    for (let i = 0; i < 600; i++) mcp.tool(`tool_${i}`, { description: `Tool ${i}: ${'ü'.repeat(100)}`, input: { type: 'object', properties: { n: { type: 'number' } } } }, () => 'ok');
    mcp.tool('wide', { description: 'A long content array, one item not serialisable past the first part', input: { type: 'object', properties: { late: { type: 'boolean' } } } }, ({ late }) => ({
      content: Array.from({ length: 300 }, (_, i) => ({ type: 'text' as const, text: `${i} ${'y'.repeat(400)}`, ...(i === (late === true ? 299 : 0) ? { _meta: { n: 10n } } : {}) })),
    }));
    return mcp;
  }

  it('sends a long list chunked and whole, the same as JSON.stringify; a bad item closes only its own answer', async () => {
    const mcp = catalogue();
    server = await start(mcp);
    const init = await post(server.url, initializeBody());
    const session = sessionHeaders(init.headers.get('mcp-session-id') ?? '');
    await init.text();
    await (await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();

    const listed = await post(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, session);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-length')).toBeNull();
    const text = await listed.text();
    const answer = JSON.parse(text) as { result: { tools: { name: string }[] } };
    expect(answer.result.tools).toHaveLength(601);
    expect(text).toBe(JSON.stringify(answer));

    // Unserialisable in the first part: a clean 500 with a JSON-RPC error.
    const early = await post(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wide', arguments: { late: false } } }, session);
    expect(early.status).toBe(500);
    expect(((await early.json()) as { error: { code: number } }).error.code).toBe(-32603);
    // Past it: the status was sent, so the answer is cut (the node adapter closes the connection; the
    // fetch adapter errors the body stream, which this test's bridge to node:http ends early).
    const cut = await fetch(server.url, { method: 'POST', headers: { ...postHeaders(), ...session }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'wide', arguments: { late: true } } }) }).then((r) => r.text())
      .catch((error: unknown) => error);
    if (typeof cut === 'string') expect(() => JSON.parse(cut) as unknown).toThrow(SyntaxError);
    else expect(cut).toBeInstanceOf(Error);
    // Nothing else is affected.
    const again = await post(server.url, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'tool_5', arguments: {} } }, session);
    expect(await again.json()).toMatchObject({ id: 4, result: { content: [{ type: 'text', text: 'ok' }] } });
  });
});
