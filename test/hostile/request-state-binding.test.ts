/**
 * A 2026-07-28 `requestState` is bound to the principal that received it and
 * to the request's salient parameters (method, target, arguments/params minus
 * `_meta` and the MRTR fields): a state issued for `confirm_delete
 * {filename: "scratch.txt"}` cannot be replayed with "production.db", nor by
 * another user. Real HTTP server with bearer-token principals; fast-check
 * properties over the binding itself.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProtocolError, McpServer } from '../../src/index.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { openRequestState, requestStateBinding, signRequestState } from '../../src/protocol/request/request-state.js';
import { MODERN, META_LOG_LEVEL, meta, modernRequest, postRaw, routingHeaders } from '../fixtures/modern-http.mjs';
import { expectValidWire } from '../support/wire-schema.js';
import { as, bearer, type Json } from './tasks-support.js';

const deleted: string[] = [];
let listener: McpHttpListener;
let url: string;
let nextId = 1;
const RETRY = 'Retry the original request without requestState and inputResponses to start over.';

beforeAll(async () => {
  const server = new McpServer({ name: 'request-state', version: '1.0.0' });
  server.tool('confirm_delete', { input: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] } }, async ({ filename }, ctx) => {
    const answer = await ctx.elicit({ message: `Delete ${String(filename)}?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { key: 'confirm' });
    if (answer.action !== 'accept') return 'kept';
    deleted.push(String(filename));
    return `deleted ${String(filename)}`;
  });
  listener = await listen(server, { port: 0, host: '127.0.0.1', keepAliveMs: 0, authenticate: bearer });
  url = listener.url;
});
afterAll(() => listener.close());

async function call(params: Json, user: string | undefined, metaExtra: Json = {}): Promise<Json> {
  const response = await modernRequest(url, nextId++, 'tools/call', params, { capabilities: { elicitation: {} }, headers: as(user), metaExtra });
  const message = response.messages.at(-1) as Json;
  expectValidWire(message, MODERN);
  return message;
}

async function firstRound(filename: unknown, user: string | undefined): Promise<string> {
  const message = await call({ name: 'confirm_delete', arguments: { filename } }, user);
  const result = message['result'] as Json;
  expect(result['resultType']).toBe('input_required');
  return String(result['requestState']);
}

const yes = { confirm: { action: 'accept', content: { ok: true } } };

describe('requestState replay on the wire', () => {
  it('refuses the state with other arguments, and the tool never runs with them', async () => {
    const state = await firstRound('scratch.txt', 'alice');
    const replay = await call({ name: 'confirm_delete', arguments: { filename: 'production.db' }, inputResponses: yes, requestState: state }, 'alice');
    expect(replay['error']).toEqual({
      code: -32602,
      message: `Invalid requestState: it was issued for tools/call confirm_delete with other arguments; send the same arguments in every round. ${RETRY}`,
    });
    const extra = await call({ name: 'confirm_delete', arguments: { filename: 'scratch.txt', force: true }, inputResponses: yes, requestState: state }, 'alice');
    expect((extra['error'] as Json)['code']).toBe(-32602);
    expect(deleted).not.toContain('production.db');
  });

  it.each([
    ['another user', 'bob'],
    ['an anonymous caller', undefined],
  ])('refuses the state replayed by %s', async (_label, intruder) => {
    const state = await firstRound('scratch.txt', 'alice');
    const replay = await call({ name: 'confirm_delete', arguments: { filename: 'scratch.txt' }, inputResponses: yes, requestState: state }, intruder);
    expect(replay['error']).toEqual({
      code: -32602,
      message: `Invalid requestState: it was issued to another user (or to this client before it signed in or out). ${RETRY}`,
    });
  });

  it('accepts the same request from the same user, whatever changes in _meta or extra inputResponses', async () => {
    const state = await firstRound('scratch.txt', 'alice');
    const done = await call(
      { name: 'confirm_delete', arguments: { filename: 'scratch.txt' }, inputResponses: { ...yes, unknown: { action: 'accept' } }, requestState: state },
      'alice',
      { [META_LOG_LEVEL]: 'debug' },
    );
    expect((done['result'] as Json)['content']).toEqual([{ type: 'text', text: 'deleted scratch.txt' }]);
  });

  it('a state issued without authentication works without it', async () => {
    const state = await firstRound('anon.txt', undefined);
    const done = await call({ name: 'confirm_delete', arguments: { filename: 'anon.txt' }, inputResponses: yes, requestState: state }, undefined);
    expect((done['result'] as Json)['content']).toEqual([{ type: 'text', text: 'deleted anon.txt' }]);
  });

  it('arguments nested 20 000 deep in a replay are refused cleanly (the digest does not recurse)', async () => {
    const state = await firstRound('scratch.txt', 'alice');
    // Written by hand: JSON.stringify itself cannot go that deep.
    const deep = `${'['.repeat(20_000)}"x"${']'.repeat(20_000)}`;
    const params = `{"name":"confirm_delete","arguments":{"filename":"scratch.txt","deep":${deep}},"inputResponses":${JSON.stringify(yes)},"requestState":${JSON.stringify(state)},"_meta":${JSON.stringify(meta({ elicitation: {} }))}}`;
    const response = await postRaw(url, `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":${params}}`, { ...routingHeaders('tools/call', { name: 'confirm_delete' }), ...as('alice') });
    const replay = response.messages.at(-1) as Json;
    expectValidWire(replay, MODERN);
    expect((replay['error'] as Json)['message']).toBe(`Invalid requestState: it was issued for tools/call confirm_delete with other arguments; send the same arguments in every round. ${RETRY}`);
  });
});

/** The canonical form the binding must be faithful to: keys sorted, the round fields dropped at the top. */
function canonical(value: unknown, top = true): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, false)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined && !(top && (k === '_meta' || k === 'requestState' || k === 'inputResponses')))
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k], false)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The same value with every object's keys in another order. The copy has no
 * prototype, so an own `__proto__` key (JSON.parse makes those) stays a key.
 */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value === 'object' && value !== null) {
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).reverse()) out[key] = reordered((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

const params = fc.dictionary(fc.constantFrom('name', 'uri', 'arguments', 'cursor', 'task', '_meta', 'inputResponses', 'x'), fc.jsonValue({ maxDepth: 3 }));
const principal = fc.option(fc.constantFrom('alice', 'bob', 'mallory', ''), { nil: undefined });
const SECRET = 'property-test-secret';

function sign(method: string, p: Record<string, unknown>, user: string | undefined): string {
  const binding = requestStateBinding(method, 'tools/call t', p, user === undefined ? undefined : { subject: user });
  return signRequestState({ ...binding, answers: {}, kept: {}, exp: Date.now() + 60_000 }, SECRET);
}

function opens(state: string, method: string, p: Record<string, unknown>, user: string | undefined): boolean {
  try {
    openRequestState(state, requestStateBinding(method, 'tools/call t', p, user === undefined ? undefined : { subject: user }), SECRET);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(JsonRpcProtocolError);
    expect((error as JsonRpcProtocolError).code).toBe(-32602);
    return false;
  }
}

describe('requestState binding (properties)', () => {
  it('the unchanged request (keys in any order, any _meta and MRTR fields) is accepted', () => {
    fc.assert(
      fc.property(params, principal, fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 }), (p, user, meta, responses) => {
        const state = sign('tools/call', p, user);
        const again = { ...(reordered(p) as Record<string, unknown>), _meta: meta, inputResponses: responses, requestState: 'ignored' };
        expect(opens(state, 'tools/call', again, user)).toBe(true);
      }),
    );
  });

  it('any change to the salient params is refused', () => {
    fc.assert(
      fc.property(params, params, principal, (p, q, user) => {
        fc.pre(canonical(p) !== canonical(q));
        expect(opens(sign('tools/call', p, user), 'tools/call', q, user)).toBe(false);
      }),
    );
  });

  it('any other principal is refused, and so is another method', () => {
    fc.assert(
      fc.property(params, principal, principal, (p, user, other) => {
        // An empty subject is no principal at all (principalOf), so it equals an unauthenticated caller.
        const norm = (u: string | undefined): string | undefined => (u === '' ? undefined : u);
        fc.pre(norm(user) !== norm(other));
        expect(opens(sign('tools/call', p, user), 'tools/call', p, other)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(params, principal, (p, user) => {
        expect(opens(sign('tools/call', p, user), 'prompts/get', p, user)).toBe(false);
      }),
    );
  });
});

describe('requestState binding (own __proto__ keys)', () => {
  it('a request whose arguments hold an own "__proto__" key, as JSON.parse makes it, opens its own state and no other', () => {
    const p = JSON.parse('{"name":{"__proto__":""}}') as Record<string, unknown>;
    const state = sign('tools/call', p, 'alice');
    expect(opens(state, 'tools/call', JSON.parse('{"name":{"__proto__":""}}') as Record<string, unknown>, 'alice')).toBe(true);
    expect(opens(state, 'tools/call', { name: {} }, 'alice')).toBe(false);
  });
});
