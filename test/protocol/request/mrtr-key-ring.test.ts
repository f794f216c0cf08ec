/**
 * requestState keys as a ring (`requestStateKeys`): the first key signs, every
 * key verifies, so instances rotate keys without refusing retries in flight;
 * a key shorter than 32 bytes is refused when the server is built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/index.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { openRequestState, requestStateBinding, signRequestState } from '../../../src/protocol/request/request-state.js';
import { modernRequest } from '../../fixtures/modern-http.mjs';

type Json = Record<string, unknown>;
const OLD = 'old-key-old-key-old-key-old-key-old-key!';
const NEW = new Uint8Array(32).fill(7);
const OTHER = 'another-key-another-key-another-key-xx';

const listeners: McpHttpListener[] = [];
afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close()));
});

async function start(keys: readonly (string | Uint8Array)[]): Promise<string> {
  const server = new McpServer({ name: 'ring', version: '1.0.0', requestState: { keys: keys } });
  server.tool('greet', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { key: 'user_name' });
    return `Hello, ${String(answer.content?.['name'])}!`;
  });
  const listener = await listen(server, { port: 0, keepAliveMs: 0 });
  listeners.push(listener);
  return listener.url;
}

async function call(url: string, extra: Json = {}): Promise<{ status: number; body: Json }> {
  const response = await modernRequest(url, 1, 'tools/call', { name: 'greet', arguments: {}, ...extra });
  return { status: response.status, body: response.messages[0] as Json };
}

const stateOf = (body: Json): unknown => (body['result'] as Json)['requestState'];
const answer = { user_name: { action: 'accept', content: { name: 'Ada' } } };

describe('requestStateKeys', () => {
  it('a state signed with the old key is accepted by an instance that rotated (new key first, old one kept)', async () => {
    const before = await start([OLD]);
    const after = await start([NEW, OLD]);
    const round1 = await call(before);
    const round2 = await call(after, { requestState: stateOf(round1.body), inputResponses: answer });
    expect(round2.status).toBe(200);
    expect(round2.body['result']).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada!' }] });
  });

  it('the first key signs: an instance that only knows the old key refuses what the rotated one issued', async () => {
    const before = await start([OLD]);
    const after = await start([NEW, OLD]);
    const round1 = await call(after);
    const refused = await call(before, { requestState: stateOf(round1.body), inputResponses: answer });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: -32602, message: expect.stringContaining('signature does not match') } });
  });

  it('a key not on the ring is refused', async () => {
    const a = await start([OTHER]);
    const b = await start([NEW, OLD]);
    const refused = await call(b, { requestState: stateOf((await call(a)).body), inputResponses: answer });
    expect(refused.status).toBe(400);
  });

  it.each([
    ['an empty ring', [] as string[], /at least one key/],
    ['a short string key', [NEW, 'short'], /requestState\.keys\[1\] has 5 bytes; each key needs at least 32/],
    ['31 bytes', [new Uint8Array(31)], /requestState\.keys\[0\] has 31 bytes/],
    ['a number', [42 as unknown as string], /requestState\.keys\[0\] must be a string or a Uint8Array/],
  ])('%s is refused when the server is built', (_why, keys, message) => {
    expect(() => new McpServer({ name: 'x', version: '1', requestState: { keys: keys } })).toThrow(message);
  });

  it('sign/open: every key of the ring verifies, the first signs', () => {
    const binding = requestStateBinding('tools/call', 'tools/call t', {}, undefined);
    const payload = { ...binding, answers: {}, kept: {}, exp: Date.now() + 60_000 };
    const signedOld = signRequestState(payload, { keys: [OLD] });
    expect(openRequestState(signedOld, binding, { keys: [NEW, OLD] })).toMatchObject({ target: 'tools/call t' });
    const signedNew = signRequestState(payload, { keys: [NEW, OLD] });
    expect(() => openRequestState(signedNew, binding, { keys: [OLD] })).toThrow(/signature does not match/);
  });
});
