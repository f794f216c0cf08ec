/**
 * Dual-era parity: one server definition on one HTTP endpoint, called by a
 * legacy client (initialize + Mcp-Session-Id, 2025-11-25 and 2025-06-18) and
 * by a 2026-07-28 client. Results carry the same content; the modern ones only
 * add resultType, cache hints and `_meta`. Every message on the wire is
 * validated against the schema of its own revision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/index.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { expectValidWire } from '../../support/wire-schema.js';
import { META_SERVER_INFO, MODERN, modernRequest, openRaw, postRaw } from '../../fixtures/modern-http.mjs';

type Json = Record<string, unknown>;

function define(server: McpServer): void {
  server.tool(
    'weather',
    {
      title: 'Weather',
      description: 'Current weather for a city',
      input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      output: { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'] },
      annotations: { readOnlyHint: true },
    },
    ({ city }) => ({ city: String(city), celsius: 21 }),
  );
  server.tool('fails', { input: { type: 'object', properties: {} } }, () => {
    throw new Error('no forecast today');
  });
  server.tool('ask_name', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { key: 'user_name' });
    return `Hello, ${String(answer.content?.['name'])}`;
  });
  server.resource('memo://readme', { name: 'readme', title: 'Read me', mimeType: 'text/markdown' }, () => '# Hello');
  server.resourceTemplate('memo://notes/{id}', { name: 'note', mimeType: 'text/plain' }, (_uri, vars) => `note ${String(vars['id'])}`);
  server.prompt('review', { description: 'Review code', arguments: [{ name: 'code', required: true }] }, (args) => `Please review: ${args['code'] ?? ''}`);
}

let listener: McpHttpListener;
let url: string;
beforeAll(async () => {
  const server = new McpServer({ name: 'parity', version: '1.2.3' });
  define(server);
  listener = await listen(server, { port: 0, keepAliveMs: 0 });
  url = listener.url;
});
afterAll(async () => {
  await listener.close({ graceMs: 0 });
});

/** A legacy session on the same endpoint; every message it receives is validated for `revision`. */
async function legacySession(revision: string): Promise<{ call(method: string, params?: Json): Promise<Json>; session: string; headers: Record<string, string> }> {
  const init = await postRaw(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: revision, capabilities: { elicitation: {} }, clientInfo: { name: 'legacy', version: '1' } } });
  expect(init.status).toBe(200);
  const response = init.messages[0] as Json;
  expectValidWire(response, revision, 'initialize');
  expect(response['result']).toMatchObject({ protocolVersion: revision, serverInfo: { name: 'parity', version: '1.2.3' } });
  const session = init.headers.get('mcp-session-id')!;
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': revision };
  expect((await postRaw(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
  let id = 1;
  return {
    session,
    headers,
    async call(method, params) {
      const reply = await postRaw(url, { jsonrpc: '2.0', id: id++, method, ...(params && { params }) }, headers);
      expect(reply.status).toBe(200);
      for (const message of reply.messages) expectValidWire(message, revision, 'method' in (message as Json) ? undefined : method);
      return reply.messages.at(-1) as Json;
    },
  };
}

async function modern(method: string, params: Json = {}): Promise<Json> {
  const reply = await modernRequest(url, 1, method, params);
  expect(reply.status).toBe(200);
  for (const message of reply.messages) expectValidWire(message, MODERN, 'method' in (message as Json) ? undefined : method);
  return reply.messages.at(-1) as Json;
}

/** What 2026-07-28 adds to a result, removed: what is left must equal the legacy result. */
function withoutModernFields(result: Json): Json {
  const { resultType, ttlMs: _ttl, cacheScope: _scope, _meta, ...rest } = result;
  expect(resultType).toBe('complete');
  const meta = { ...(_meta as Json | undefined) };
  expect(meta[META_SERVER_INFO]).toEqual({ name: 'parity', version: '1.2.3' });
  delete meta[META_SERVER_INFO];
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

const calls: [string, Json][] = [
  ['tools/list', {}],
  ['tools/call', { name: 'weather', arguments: { city: 'Oslo' } }],
  ['tools/call', { name: 'weather', arguments: { city: 42 } }],
  ['tools/call', { name: 'fails', arguments: {} }],
  ['resources/list', {}],
  ['resources/templates/list', {}],
  ['resources/read', { uri: 'memo://readme' }],
  ['resources/read', { uri: 'memo://notes/7' }],
  ['prompts/list', {}],
  ['prompts/get', { name: 'review', arguments: { code: 'x = 1' } }],
  ['completion/complete', { ref: { type: 'ref/resource', uri: 'memo://notes/{id}' }, argument: { name: 'id', value: '' } }],
];

describe.each(['2025-11-25', '2025-06-18'])('legacy %s and 2026-07-28 on one endpoint', (revision) => {
  it.each(calls)('%s %j gives the same content', async (method, params) => {
    const legacy = await legacySession(revision);
    const old = await legacy.call(method, params);
    const now = await modern(method, params);
    expect(old).not.toHaveProperty('error');
    const oldResult = old['result'] as Json;
    expect(oldResult).not.toHaveProperty('resultType');
    expect(withoutModernFields(now['result'] as Json)).toEqual(oldResult);
  });

  it('errors agree too (unknown tool is -32602 in both eras)', async () => {
    const legacy = await legacySession(revision);
    const old = await legacy.call('tools/call', { name: 'nope', arguments: {} });
    const reply = await modernRequest(url, 1, 'tools/call', { name: 'nope', arguments: {} });
    expect(reply.status).toBe(400);
    expect((reply.messages[0] as Json)['error']).toEqual(old['error']);
  });
});

describe('one handler, two wire shapes for client input', () => {
  it('legacy: elicitation/create request on the call stream, answered by POST; modern: input_required then retry — same final result', async () => {
    const revision = '2025-11-25';
    const legacy = await legacySession(revision);
    const stream = await openRaw(url, { jsonrpc: '2.0', id: 'ask', method: 'tools/call', params: { name: 'ask_name', arguments: {} } }, legacy.headers);
    const request = (await stream.next()) as Json;
    expectValidWire(request, revision);
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'Your name?' } });
    const answer = await postRaw(url, { jsonrpc: '2.0', id: request['id'], result: { action: 'accept', content: { name: 'Ada' } } }, legacy.headers);
    expect(answer.status).toBe(202);
    const oldResponse = (await stream.next()) as Json;
    expectValidWire(oldResponse, revision, 'tools/call');

    const r1 = await modern('tools/call', { name: 'ask_name', arguments: {} });
    const first = r1['result'] as Json;
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create', params: request['params'] } } });
    const r2 = await modern('tools/call', {
      name: 'ask_name',
      arguments: {},
      requestState: first['requestState'],
      inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(withoutModernFields(r2['result'] as Json)).toEqual(oldResponse['result']);
    expect(oldResponse['result']).toEqual({ content: [{ type: 'text', text: 'Hello, Ada' }] });
  });
});
