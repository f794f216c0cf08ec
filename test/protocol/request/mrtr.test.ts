/**
 * Multi Round-Trip Requests (2026-07-28) on the HTTP wire: input_required
 * rounds with stable keys, signed requestState across rounds and instances,
 * and every way a retry can go wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer, type McpServerConfig } from '../../../src/index.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { expectValidWire } from '../../support/wire-schema.js';
import { MODERN, modernRequest, until } from '../../fixtures/modern-http.mjs';

type Json = Record<string, unknown>;

const nameSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] } = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};
const accept = (content: Json): Json => ({ action: 'accept', content });
const sampled = (text: string): Json => ({ role: 'assistant', content: { type: 'text', text }, model: 'test-model' });

function build(config: Partial<McpServerConfig> = {}): McpServer {
  const server = new McpServer({ name: 'mrtr', version: '1.0.0', ...config });
  server.tool('greet', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { key: 'user_name' });
    return `Hello, ${String(answer.content?.['name'])}!`;
  });
  server.tool('parallel', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit({ message: 'Name?', requestedSchema: nameSchema }, { key: 'user_name' }),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Greet' } }], maxTokens: 10 }, { key: 'greeting' }),
      ctx.listRoots({ key: 'client_roots' }),
    ]);
    const text = Array.isArray(greeting.content) ? '' : greeting.content.type === 'text' ? greeting.content.text : '';
    return `${String(text)} ${String(name.content?.['name'])} (${roots.roots.length} roots)`;
  });
  server.tool('rounds', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    const state = ctx.requestState as { rounds?: number };
    state.rounds = (state.rounds ?? 0) + 1;
    const first = await ctx.elicit({ message: 'Step 1', requestedSchema: nameSchema }, { key: 'step1' });
    const second = await ctx.elicit({ message: 'Step 2', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } }, { key: 'step2' });
    return `${String(first.content?.['name'])} from ${String(second.content?.['city'])} after ${state.rounds} rounds`;
  });
  server.prompt('contextual', {}, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Context?', requestedSchema: { type: 'object', properties: { context: { type: 'string' } } } }, { key: 'user_context' });
    return `Use this context: ${String(answer.content?.['context'])}`;
  });
  server.resource('memo://private', { name: 'private', mimeType: 'text/plain' }, async (ctx) => {
    const answer = await ctx.elicit({ message: 'Password?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { key: 'unlock' });
    return answer.action === 'accept' ? 'secret contents' : 'locked';
  });
  return server;
}

const listeners: McpHttpListener[] = [];
async function start(config: Partial<McpServerConfig> = {}): Promise<string> {
  const listener = await listen(build(config), { port: 0, keepAliveMs: 0 });
  listeners.push(listener);
  return listener.url;
}
afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close({ graceMs: 0 })));
});

let url: string;
beforeAll(async () => {
  url = await start();
});

/** One round: the request's JSON-RPC message, schema-checked, with its HTTP status. */
async function round(target: string, method: string, params: Json, extra: { inputResponses?: unknown; requestState?: unknown } = {}, id: number | string = 1): Promise<{ status: number; message: Json }> {
  const reply = await modernRequest(target, id, method, { ...params, ...extra });
  expect(reply.messages).toHaveLength(1);
  const message = reply.messages[0] as Json;
  expectValidWire(message, MODERN, 'result' in message ? method : undefined);
  return { status: reply.status, message };
}

const resultOf = (message: Json): Json => message['result'] as Json;
const textOf = (message: Json): string => ((resultOf(message)['content'] as { text: string }[])[0]?.text) ?? '';
const callGreet = { name: 'greet', arguments: {} };

describe('first round', () => {
  it('batches every parallel input under its stable key, with a signed requestState', async () => {
    const { status, message } = await round(url, 'tools/call', { name: 'parallel', arguments: {} });
    expect(status).toBe(200);
    const result = resultOf(message);
    expect(result['resultType']).toBe('input_required');
    expect(Object.keys(result['inputRequests'] as Json)).toEqual(['user_name', 'greeting', 'client_roots']);
    expect(result['inputRequests']).toMatchObject({
      user_name: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: nameSchema } },
      greeting: { method: 'sampling/createMessage', params: { maxTokens: 10 } },
      client_roots: { method: 'roots/list', params: {} },
    });
    expect(typeof result['requestState']).toBe('string');
    expect(result).not.toHaveProperty('content');
  });

  it('the retry with every answer completes', async () => {
    const first = resultOf((await round(url, 'tools/call', { name: 'parallel', arguments: {} })).message);
    const { status, message } = await round(url, 'tools/call', { name: 'parallel', arguments: {} }, {
      requestState: first['requestState'],
      inputResponses: { user_name: accept({ name: 'Ada' }), greeting: sampled('Hi'), client_roots: { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] } },
    }, 2);
    expect(status).toBe(200);
    expect(resultOf(message)['resultType']).toBe('complete');
    expect(textOf(message)).toBe('Hi Ada (2 roots)');
  });

  it('tools/list never asks for input, even when the request carries inputResponses', async () => {
    const { message } = await round(url, 'tools/list', {}, { inputResponses: { user_name: accept({ name: 'x' }) } });
    expect(resultOf(message)['resultType']).toBe('complete');
    expect((resultOf(message)['tools'] as unknown[]).length).toBe(3);
  });
});

describe('several rounds', () => {
  it('asks one question per round, with a new state each time, carrying earlier answers and ctx.requestState', async () => {
    const call = { name: 'rounds', arguments: {} };
    const r1 = resultOf((await round(url, 'tools/call', call)).message);
    expect(Object.keys(r1['inputRequests'] as Json)).toEqual(['step1']);
    const r2 = resultOf((await round(url, 'tools/call', call, { requestState: r1['requestState'], inputResponses: { step1: accept({ name: 'Ada' }) } })).message);
    expect(r2['resultType']).toBe('input_required');
    expect(Object.keys(r2['inputRequests'] as Json)).toEqual(['step2']);
    expect(r2['requestState']).not.toBe(r1['requestState']);
    // Round 3 answers step2 only: step1 comes back from the signed state.
    const r3 = await round(url, 'tools/call', call, { requestState: r2['requestState'], inputResponses: { step2: accept({ city: 'London' }) } });
    expect(resultOf(r3.message)['resultType']).toBe('complete');
    expect(textOf(r3.message)).toBe('Ada from London after 3 rounds');
  });
});

describe('refused states (JSON-RPC -32602, HTTP 400)', () => {
  async function expectRefused(target: string, method: string, params: Json, requestState: unknown, answers: Json): Promise<void> {
    const { status, message } = await round(target, method, params, { requestState, inputResponses: answers }, 'r');
    expect(status).toBe(400);
    expect(message).toMatchObject({ id: 'r', error: { code: -32602 } });
    expect(message['error']).toHaveProperty('message', expect.stringMatching(/requestState/));
  }

  it('tampered', async () => {
    const state = resultOf((await round(url, 'tools/call', callGreet)).message)['requestState'] as string;
    await expectRefused(url, 'tools/call', callGreet, `${state}-TAMPERED`, { user_name: accept({ name: 'x' }) });
    // A payload edited and re-encoded keeps a well-formed shape but loses the signature.
    const [body, mac] = state.split('.') as [string, string];
    const edited = Buffer.from(Buffer.from(body, 'base64url').toString().replace('"answers":{}', '"answers":{"x":1}')).toString('base64url');
    expect(edited).not.toBe(body);
    await expectRefused(url, 'tools/call', callGreet, `${edited}.${mac}`, { user_name: accept({ name: 'x' }) });
  });

  it('not a string', () => expectRefused(url, 'tools/call', callGreet, { forged: true }, {}));

  it('expired (requestStateTtlMs)', async () => {
    const shortLived = await start({ requestState: { ttlMs: 1 } });
    const issued = Date.now();
    const state = resultOf((await round(shortLived, 'tools/call', callGreet)).message)['requestState'];
    await until(() => Date.now() > issued + 50);
    await expectRefused(shortLived, 'tools/call', callGreet, state, { user_name: accept({ name: 'late' }) });
  });

  it('foreign: issued for another tool', async () => {
    const state = resultOf((await round(url, 'tools/call', { name: 'rounds', arguments: {} })).message)['requestState'];
    await expectRefused(url, 'tools/call', callGreet, state, { user_name: accept({ name: 'x' }) });
  });

  it('foreign: issued by a server with another secret', async () => {
    const other = await start({ requestState: { keys: ['another secret, at least 32 bytes long'] } });
    const state = resultOf((await round(other, 'tools/call', callGreet)).message)['requestState'];
    await expectRefused(url, 'tools/call', callGreet, state, { user_name: accept({ name: 'x' }) });
  });
});

describe('answers that do not fit', () => {
  it('a wrong key is asked again', async () => {
    const { message } = await round(url, 'tools/call', callGreet, { inputResponses: { wrong_key: accept({ name: 'x' }) } });
    expect(resultOf(message)).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
  });

  it.each([
    ['a number', { user_name: 12345 }],
    ['an elicitation answer without action', { user_name: { content: { name: 'x' } } }],
    ['null inputResponses', null],
  ])('%s is asked again, never completed', async (_why, inputResponses) => {
    const { message } = await round(url, 'tools/call', callGreet, { inputResponses });
    expect(resultOf(message)).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: {} } });
  });

  it('answers without requestState are accepted (extra keys ignored)', async () => {
    const { message } = await round(url, 'tools/call', callGreet, { inputResponses: { user_name: accept({ name: 'Bo' }), unrelated: 1 } });
    expect(resultOf(message)['resultType']).toBe('complete');
    expect(textOf(message)).toBe('Hello, Bo!');
  });
});

describe('prompts and resources ask too', () => {
  it('prompts/get', async () => {
    const r1 = resultOf((await round(url, 'prompts/get', { name: 'contextual' })).message);
    expect(r1).toMatchObject({ resultType: 'input_required', inputRequests: { user_context: { method: 'elicitation/create' } } });
    const r2 = await round(url, 'prompts/get', { name: 'contextual' }, { requestState: r1['requestState'], inputResponses: { user_context: accept({ context: 'tests' }) } });
    expect(resultOf(r2.message)).toMatchObject({ resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'Use this context: tests' } }] });
  });

  it('resources/read (input_required carries no cache hints; the final result does)', async () => {
    const r1 = resultOf((await round(url, 'resources/read', { uri: 'memo://private' })).message);
    expect(r1).toMatchObject({ resultType: 'input_required', inputRequests: { unlock: { method: 'elicitation/create' } } });
    expect(r1).not.toHaveProperty('ttlMs');
    const r2 = await round(url, 'resources/read', { uri: 'memo://private' }, { requestState: r1['requestState'], inputResponses: { unlock: accept({ ok: true }) } });
    expect(resultOf(r2.message)).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', contents: [{ uri: 'memo://private', text: 'secret contents' }] });
  });
});

describe('requestStateKeys across instances', () => {
  it('a second instance with the same secret finishes a retry started on the first', async () => {
    const a = await start({ requestState: { keys: ['a shared secret, at least 32 bytes long'] } });
    const b = await start({ requestState: { keys: ['a shared secret, at least 32 bytes long'] } });
    const r1 = resultOf((await round(a, 'tools/call', { name: 'rounds', arguments: {} })).message);
    const r2 = resultOf((await round(b, 'tools/call', { name: 'rounds', arguments: {} }, { requestState: r1['requestState'], inputResponses: { step1: accept({ name: 'Ada' }) } })).message);
    expect(Object.keys(r2['inputRequests'] as Json)).toEqual(['step2']);
    const r3 = await round(a, 'tools/call', { name: 'rounds', arguments: {} }, { requestState: r2['requestState'], inputResponses: { step2: accept({ city: 'Paris' }) } });
    expect(textOf(r3.message)).toBe('Ada from Paris after 3 rounds');
  });

  it('an instance with a different secret refuses it', async () => {
    const a = await start({ requestState: { keys: ['secret a, at least thirty-two bytes long'] } });
    const b = await start({ requestState: { keys: [new TextEncoder().encode('secret b, at least thirty-two bytes long')] } });
    const state = resultOf((await round(a, 'tools/call', callGreet)).message)['requestState'];
    const { status, message } = await round(b, 'tools/call', callGreet, { requestState: state, inputResponses: { user_name: accept({ name: 'x' }) } });
    expect(status).toBe(400);
    expect(message).toMatchObject({ error: { code: -32602 } });
  });
});
