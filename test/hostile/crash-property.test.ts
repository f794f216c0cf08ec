/**
 * Property-based: arbitrary results (any JSON, with a BigInt, a cycle, a throwing toJSON or a
 * 100,000-deep value somewhere inside) and arbitrary inputResponses, through every adapter in
 * this process. A result JSON can carry comes back exactly; one it cannot is HTTP 500 with
 * -32603 for that id; unknown inputResponses never reach the signed state; and no rejection
 * goes unhandled.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/server.js';
import { startFetch, startNode, type TestServer } from '../transports/http/support.js';
import { callModern, modernResult, startExpress, unserialisable, type Json } from './crash-support.js';

const POISONS = ['bigint', 'cycle', 'tojson', 'deep'] as const;

function poison(kind: (typeof POISONS)[number]): unknown {
  switch (kind) {
    case 'bigint':
      return 1n;
    case 'cycle': {
      const value: Json = {};
      value['self'] = value;
      return value;
    }
    case 'tojson':
      return { toJSON: () => { throw new Error('no'); } };
    case 'deep': {
      let value: unknown = [];
      for (let i = 0; i < 100_000; i++) value = [value];
      return value;
    }
  }
}

/** Wraps `value` in arrays ('a') and objects ('o'), outermost first. */
function nest(value: unknown, path: readonly string[]): unknown {
  return path.reduceRight<unknown>((inner, step) => (step === 'a' ? [1, inner] : { k: inner }), value);
}

function buildServer(): McpServer {
  const server = new McpServer({ name: 'crash-fixture', version: '1.0.0', logger: { error: () => undefined, warn: () => undefined } });
  const anyObject = { type: 'object' } as const;
  server.tool('shape', { description: 'Returns `value`, with a poison nested at `path`', input: anyObject }, (input: Json) => {
    const structuredContent: Json = { value: input['value'] };
    if (typeof input['poison'] === 'string') structuredContent['extra'] = nest(poison(input['poison'] as (typeof POISONS)[number]), input['path'] as string[]);
    return { content: [{ type: 'text', text: 'shaped' }], structuredContent };
  });
  server.tool('ask', { description: 'Asks once', input: anyObject }, async (_input, ctx) => {
    const answer = await ctx.elicit({ message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } });
    return `answer: ${answer.action}`;
  });
  return server;
}

const unhandled: unknown[] = [];
const record = (reason: unknown): void => void unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
});
afterAll(() => {
  process.off('unhandledRejection', record);
  process.off('uncaughtException', record);
});

const adapters: [string, (server: McpServer) => Promise<TestServer>][] = [
  ['node', (server) => startNode(server)],
  ['fetch', (server) => startFetch(server)],
  ['express', (server) => startExpress(server)],
];

describe.each(adapters)('%s adapter', (_name, start) => {
  let http: TestServer;
  beforeAll(async () => {
    http = await start(buildServer());
    return () => http.close();
  });

  it('answers any result exactly, or 500 with -32603 when JSON cannot carry it', async () => {
    let id = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 4 }),
        fc.option(fc.constantFrom(...POISONS), { nil: undefined }),
        fc.array(fc.constantFrom('a', 'o'), { maxLength: 4 }),
        async (value, kind, path) => {
          const n = ++id;
          const answer = await callModern(http.url, n, 'shape', { value, path, ...(kind === undefined ? {} : { poison: kind }) });
          if (kind === undefined) {
            expect(answer.status).toBe(200);
            const echoed = JSON.parse(JSON.stringify({ value })) as Json;
            expect(answer.messages).toEqual([modernResult(n, { content: [{ type: 'text', text: 'shaped' }], structuredContent: echoed })]);
          } else {
            expect(answer.status).toBe(500);
            expect(answer.messages).toEqual([unserialisable(n)]);
          }
        },
      ),
      { numRuns: 40 },
    );
    expect(unhandled).toEqual([]);
  });

  it('ignores every inputResponses entry it did not ask for, whatever its shape', async () => {
    let id = 1000;
    const plausible = fc.record({ action: fc.constantFrom('accept', 'decline', 'cancel') });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string().filter((key) => key !== 'elicitation_1'), fc.jsonValue({ maxDepth: 5 }), { maxKeys: 6 }),
        fc.option(fc.oneof(plausible, fc.jsonValue({ maxDepth: 2 })), { nil: undefined }),
        async (unknown, answer) => {
          const n = ++id;
          const inputResponses = answer === undefined ? unknown : { ...unknown, elicitation_1: answer };
          const reply = await callModern(http.url, n, 'ask', {}, { inputResponses });
          expect(reply.status).toBe(200);
          const action = typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? (answer as Json)['action'] : undefined;
          if (action === 'accept' || action === 'decline' || action === 'cancel') {
            expect(reply.messages).toEqual([modernResult(n, { content: [{ type: 'text', text: `answer: ${action}` }] })]);
            return;
          }
          const result = reply.messages[0]!['result'] as Json;
          expect(result['resultType']).toBe('input_required');
          const state = JSON.parse(Buffer.from(String(result['requestState']).split('.')[0]!, 'base64url').toString()) as Json;
          expect(state['answers']).toEqual({});
        },
      ),
      { numRuns: 40 },
    );
    expect(unhandled).toEqual([]);
  });
});
