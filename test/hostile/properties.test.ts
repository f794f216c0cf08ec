/**
 * Property-based tests: arbitrary JSON values and near-envelopes into
 * `handleMessage`, arbitrary bytes into the stdio transport. Nothing throws,
 * every run finishes (bounded runs; a hang fails the test by its timeout), and
 * the output is always either nothing or well-formed JSON-RPC responses whose
 * ids correlate with the requests' ids.
 */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/server.js';
import { StdioTransport } from '../../src/transports/stdio.js';
import { makeServer } from '../support/servers.js';
import { validateWire } from '../support/wire-schema.js';
import { modernMeta } from '../support/wire.js';

type Json = Record<string, unknown>;

const ABSENT = Symbol('absent');
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const isPlainObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** JSON-RPC ids: strings, integers (we refuse fractions) and null. */
const isId = (v: unknown): boolean => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));

/**
 * What JSON-RPC 2.0 says one message must get back: nothing (a notification,
 * or a response from the client), or a response carrying the request's id —
 * null when the id is missing or unusable.
 */
function expectedReply(item: unknown): { id: unknown } | undefined {
  if (!isPlainObject(item)) return { id: null };
  const hasId = hasOwn(item, 'id');
  const id = hasId && isId(item['id']) ? item['id'] : null;
  if (hasId && !isId(item['id'])) return { id: null };
  if (item['jsonrpc'] !== '2.0') return { id };
  if (hasOwn(item, 'method')) {
    const params = item['params'];
    const wellFormed = typeof item['method'] === 'string' && (params === undefined || (typeof params === 'object' && params !== null));
    if (!wellFormed) return { id };
    return hasId ? { id } : undefined;
  }
  const isResult = hasOwn(item, 'result');
  const isError = hasOwn(item, 'error');
  const error = item['error'];
  const goodError = isPlainObject(error) && typeof error['code'] === 'number' && typeof error['message'] === 'string';
  if (hasId && isResult !== isError && (isResult || goodError)) return undefined;
  return { id };
}

/** A well-formed response: exactly jsonrpc/id/result or jsonrpc/id/error{code,message[,data]}, no stack anywhere. */
function expectWellFormedResponse(response: unknown): void {
  expect(isPlainObject(response)).toBe(true);
  const r = response as Json;
  expect(r['jsonrpc']).toBe('2.0');
  expect(isId(r['id'])).toBe(true);
  if (hasOwn(r, 'error')) {
    expect(Object.keys(r).sort()).toEqual(['error', 'id', 'jsonrpc']);
    const error = r['error'] as Json;
    expect(Number.isInteger(error['code'])).toBe(true);
    expect(typeof error['message']).toBe('string');
    for (const key of Object.keys(error)) expect(['code', 'message', 'data']).toContain(key);
  } else {
    expect(Object.keys(r).sort()).toEqual(['id', 'jsonrpc', 'result']);
    expect(isPlainObject(r['result'])).toBe(true);
  }
  expect(JSON.stringify(response)).not.toMatch(/\n\s+at /);
  // Schema envelope check where the MCP schema applies (it does not model null ids).
  if (r['id'] !== null) expect(validateWire(response, '2025-11-25')).toEqual([]);
}

function expectCorrelated(payload: unknown, result: unknown): void {
  if (Array.isArray(payload) && payload.length > 0) {
    const expected = payload.map(expectedReply).filter((e): e is { id: unknown } => e !== undefined);
    if (expected.length === 0) {
      expect(result).toBeUndefined();
      return;
    }
    expect(Array.isArray(result)).toBe(true);
    const responses = result as unknown[];
    expect(responses.map((r) => (r as Json)['id'])).toEqual(expected.map((e) => e.id));
    responses.forEach(expectWellFormedResponse);
    return;
  }
  if (Array.isArray(payload)) {
    // The empty batch: one Invalid Request object.
    expect(result).toStrictEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch is not allowed' } });
    return;
  }
  const expected = expectedReply(payload);
  if (expected === undefined) {
    expect(result).toBeUndefined();
    return;
  }
  expectWellFormedResponse(result);
  expect((result as Json)['id']).toBe(expected.id);
}

const METHODS = [
  'initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list',
  'resources/subscribe', 'prompts/list', 'prompts/get', 'completion/complete', 'logging/setLevel', 'server/discover',
  'notifications/initialized', 'notifications/cancelled', 'notifications/roots/list_changed', 'nope',
];

/** Objects that are almost, or exactly, JSON-RPC envelopes for our methods. */
const nearEnvelope: fc.Arbitrary<unknown> = fc
  .record({
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), fc.constant(ABSENT), fc.constantFrom('1.0', 2, null, '2.0 ')),
    id: fc.oneof(fc.constant(ABSENT), fc.constant(null), fc.integer(), fc.string({ maxLength: 8 }), fc.double(), fc.boolean(), fc.object({ maxDepth: 1 }), fc.array(fc.integer(), { maxLength: 2 })),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.constantFrom(...METHODS), fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null), fc.constant(ABSENT)),
    params: fc.oneof(
      fc.constant(ABSENT),
      fc.record(
        {
          name: fc.constantFrom('echo', 'boom', 'refuse', 'protocol', 'greet', 'nope', ''),
          uri: fc.constantFrom('mem://greeting', 'mem://boom', 'mem://protocol', 'mem://items/1', 'mem://nope', ''),
          arguments: fc.oneof(fc.dictionary(fc.constantFrom('text', 'name', 'x'), fc.jsonValue({ maxDepth: 1 })), fc.jsonValue({ maxDepth: 1 })),
          protocolVersion: fc.constantFrom('2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28', 'x'),
          level: fc.constantFrom('info', 'nope'),
          requestId: fc.oneof(fc.integer(), fc.string()),
          _meta: fc.oneof(fc.constant(modernMeta()), fc.jsonValue({ maxDepth: 1 })),
          cursor: fc.string({ maxLength: 6 }),
        },
        { requiredKeys: [] },
      ),
      fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    result: fc.oneof(fc.constant(ABSENT), fc.constant(ABSENT), fc.jsonValue({ maxDepth: 1 })),
    error: fc.oneof(fc.constant(ABSENT), fc.constant(ABSENT), fc.record({ code: fc.integer(), message: fc.string() }), fc.jsonValue({ maxDepth: 1 })),
  })
  .map((fields) => {
    const out: Json = {};
    for (const [key, value] of Object.entries(fields)) if (value !== ABSENT) out[key] = value;
    // What a transport hands over is always plain JSON.
    return JSON.parse(JSON.stringify(out)) as unknown;
  });

describe('handleMessage on arbitrary input', () => {
  const { server } = makeServer();

  it('never throws and answers every arbitrary JSON value correctly (fc.jsonValue)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (payload) => {
        const connection = server.openConnection();
        const result = await connection.handleMessage(payload);
        expectCorrelated(payload, result);
        connection.close();
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and answers near-envelopes, alone and in batches, with correlated ids', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(nearEnvelope, fc.array(nearEnvelope, { maxLength: 6 })), async (payload) => {
        const connection = server.openConnection();
        const result = await connection.handleMessage(payload);
        expectCorrelated(payload, result);
        connection.close();
      }),
      { numRuns: 500 },
    );
  });
});

describe('StdioTransport on arbitrary bytes', () => {
  function request(id: number): string {
    return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `r${id}` } } });
  }

  it('never throws or hangs; answers each embedded request once, by id, and everything else with null-id errors or nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constant('request' as const), fc.constant('notification' as const)), { maxLength: 12 }),
        // Limits above the embedded requests' length (about 100 characters).
        fc.constantFrom(undefined, 128, 256),
        fc.integer({ min: 1, max: 64 }),
        async (segments, maxLineLength, chunkSize) => {
          const server = new McpServer({ name: 'p', version: '1', logger: {} });
          server.tools.register({ name: 'echo', execute: (input: { text?: unknown }) => ({ content: [{ type: 'text', text: String(input.text) }] }) });
          const input = new PassThrough();
          const output = new PassThrough();
          let written = '';
          output.setEncoding('utf8');
          output.on('data', (chunk: string) => (written += chunk));
          const transport = new StdioTransport({ input, output, ...(maxLineLength === undefined ? {} : { maxLineLength }) });
          await server.connect(transport);
          const closed = new Promise<void>((resolve) => {
            const previous = transport.onclose;
            transport.onclose = () => {
              previous?.();
              resolve();
            };
          });

          const parts: Buffer[] = [];
          const ids: number[] = [];
          segments.forEach((segment, i) => {
            if (segment === 'request') {
              ids.push(i);
              parts.push(Buffer.from(`\n${request(i)}\n`));
            } else if (segment === 'notification') {
              parts.push(Buffer.from('\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n'));
            } else {
              parts.push(Buffer.from(segment));
            }
          });
          const bytes = Buffer.concat(parts);
          for (let at = 0; at < bytes.length; at += chunkSize) input.write(bytes.subarray(at, at + chunkSize));
          input.end();
          await closed;
          await server.stop();

          expect(written === '' || written.endsWith('\n')).toBe(true);
          const messages = written.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as Json);
          messages.forEach(expectWellFormedResponse);
          const answered = messages.filter((m) => m['id'] !== null);
          expect(answered.map((m) => m['id']).sort((a, b) => Number(a) - Number(b))).toEqual(ids);
          for (const m of answered) expect(m['result']).toStrictEqual({ content: [{ type: 'text', text: `r${String(m['id'])}` }] });
          for (const m of messages.filter((x) => x['id'] === null)) expect([-32700, -32600]).toContain((m['error'] as Json)['code']);
        },
      ),
      { numRuns: 150 },
    );
  });
});
