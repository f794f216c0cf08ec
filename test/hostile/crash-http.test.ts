/**
 * Property 1 of the hardening issue, over HTTP, on every adapter (listen/createNodeHandler,
 * createFetchHandler, mountMcpHttp) in a server process of its own: no input crashes the
 * process or escapes as an unhandled rejection. Each hostile request gets its exact answer,
 * then the same process still serves, and its stderr holds nothing but logger lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callModern,
  DEEP,
  deepJson,
  expectHealthy,
  expectServing,
  HTTP_MODES,
  killAll,
  modernMeta,
  modernResult,
  post,
  spawnHttp,
  unserialisable,
  type HttpProcess,
  type Json,
} from './crash-support.js';

afterAll(killAll);

/** The payload of a requestState (its signature is the server's business). */
function statePayload(state: unknown): Json {
  expect(typeof state).toBe('string');
  return JSON.parse(Buffer.from((state as string).split('.')[0]!, 'base64url').toString()) as Json;
}

function inputRequired(id: number, answer: Json): void {
  const result = answer['result'] as Json;
  expect(answer).toMatchObject({ jsonrpc: '2.0', id });
  expect(result['resultType']).toBe('input_required');
  expect(result['inputRequests']).toEqual({
    elicitation_1: { method: 'elicitation/create', params: { message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } } },
  });
}

describe.each(HTTP_MODES)('%s adapter', (mode) => {
  let server: HttpProcess;
  beforeAll(async () => {
    server = await spawnHttp(mode);
  });

  it('ignores an unknown inputResponses key nested 6,000 deep (it used to crash the process)', async () => {
    for (const depth of [6_000, 100_000]) {
      const answer = await callModern(server.url, 1, 'ask', {}, { inputResponses: { attack: DEEP } }, depth);
      expect(answer.status).toBe(200);
      expect(answer.messages).toHaveLength(1);
      inputRequired(1, answer.messages[0]!);
      // Nothing the client made up reaches the signed state.
      expect(statePayload((answer.messages[0]!['result'] as Json)['requestState'])['answers']).toEqual({});
    }
    expectHealthy(server);
    await expectServing(server.url);
  });

  it('keeps a recognised answer and still drops the unknown keys beside it', async () => {
    const answer = await callModern(server.url, 2, 'ask', { times: 1 }, { inputResponses: { elicitation_1: { action: 'accept', content: {} }, noise: [[[]]] } });
    expect(answer.status).toBe(200);
    expect(answer.messages).toEqual([modernResult(2, { content: [{ type: 'text', text: 'answer: accept' }] })]);
  });

  it('answers 500 with -32603 for that request when the result cannot be serialised', async () => {
    // Deep structuredContent echoing the arguments, then each kind of poison in the result.
    const deep = await callModern(server.url, 3, 'echo_structured', { value: DEEP });
    expect(deep.status).toBe(500);
    expect(deep.contentType).toBe('application/json');
    expect(deep.messages).toEqual([unserialisable(3)]);
    for (const [i, kind] of ['bigint', 'cycle', 'tojson', 'deep'].entries()) {
      const answer = await callModern(server.url, 10 + i, 'poison', { kind, where: 'result' });
      expect(answer.status).toBe(500);
      expect(answer.messages).toEqual([unserialisable(10 + i)]);
    }
    expectHealthy(server);
    await expectServing(server.url);
  });

  it('answers 500 with -32603 when the error data cannot be serialised', async () => {
    for (const [i, kind] of ['bigint', 'cycle', 'deep'].entries()) {
      const answer = await callModern(server.url, 20 + i, 'poison', { kind, where: 'error' });
      expect(answer.status).toBe(500);
      expect(answer.messages).toEqual([unserialisable(20 + i)]);
    }
    expectHealthy(server);
    await expectServing(server.url);
  });

  it('fails only the tool call whose log notification cannot be serialised', async () => {
    const answer = await callModern(server.url, 30, 'poison', { kind: 'bigint', where: 'log' }, { _meta: { ...modernMeta(), 'io.modelcontextprotocol/logLevel': 'debug' } });
    expect(answer.status).toBe(200);
    expect(answer.messages).toEqual([
      modernResult(30, {
        content: [{ type: 'text', text: 'notifications/message could not be serialised as JSON (a cyclic, too deeply nested or BigInt value); it was not sent' }],
        isError: true,
      }),
    ]);
    expectHealthy(server);
    await expectServing(server.url);
  });

  it('fails the round when an answer it must carry forward cannot be signed, and the next request is served', async () => {
    // The first answer is recognised and kept; the second call ends the round, and the state cannot be serialised.
    const answer = await callModern(server.url, 40, 'ask', { times: 2 }, { inputResponses: { elicitation_1: { action: 'accept', content: { deep: DEEP } } } });
    expect(answer.status).toBe(200);
    expect(answer.messages).toEqual([{ jsonrpc: '2.0', id: 40, error: { code: -32603, message: 'Internal error' } }]);
    expectHealthy(server);
    await expectServing(server.url);
  });
});

describe.each(HTTP_MODES)('%s adapter, modern-only server', (mode) => {
  let server: HttpProcess;
  beforeAll(async () => {
    server = await spawnHttp(mode, ['--modern-only']);
  });

  it('answers 500 with -32603 to an initialize whose echoed protocolVersion cannot be serialised', async () => {
    const raw = `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":${deepJson(100_000)},"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`;
    const answer = await post(server.url, raw);
    expect(answer.status).toBe(500);
    expect(answer.messages).toEqual([unserialisable(7)]);
    expectHealthy(server);
    await expectServing(server.url);
  });
});
