/**
 * 2026-07-28 over HTTP, on the exact wire: `_meta` validation order and the
 * HTTP status of each error, removed methods, server/discover, resultType,
 * cache hints, serverInfo in `_meta`, per-request log level, -32021, and
 * compact single-line JSON on every response.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer, type McpServerConfig } from '../../../src/index.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { expectValidWire } from '../../support/wire-schema.js';
import {
  META_CAPABILITIES,
  META_LOG_LEVEL,
  META_SERVER_INFO,
  META_VERSION,
  meta,
  MODERN,
  modernRequest,
  postRaw,
  routingHeaders,
} from '../../fixtures/modern-http.mjs';

function build(config: Partial<McpServerConfig> = {}): McpServer {
  const server = new McpServer({ name: 'modern-meta', version: '3.1.4', ...config });
  server.tool('echo', { input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, ({ text }) => `echo: ${String(text)}`);
  server.tool('chatty', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    await ctx.log('info', 'first');
    await ctx.log('debug', 'too detailed');
    await ctx.log('error', 'second');
    return 'logged';
  });
  server.tool('steps', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    await ctx.progress(1, 2, 'half');
    await ctx.progress(2, 2);
    return 'stepped';
  });
  server.tool('needs_sampling', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    return JSON.stringify(answer);
  });
  server.resource('memo://one', { name: 'one', mimeType: 'text/plain' }, () => 'first memo');
  server.resourceTemplate('memo://item/{id}', { name: 'item' }, (_uri, vars) => `item ${String(vars['id'])}`);
  server.prompt('greet', { arguments: [{ name: 'who', required: true }] }, (args) => `Hello ${args['who'] ?? ''}`);
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

/** Every modern response body is one compact line of JSON per message, valid for 2026-07-28. */
function expectCompactAndValid(reply: { text: string; contentType: string; messages: unknown[] }, resultOf?: string): void {
  if (reply.contentType.startsWith('application/json')) {
    expect(reply.text).not.toContain('\n');
    expect(reply.text).toBe(JSON.stringify(JSON.parse(reply.text)));
  } else {
    for (const line of reply.text.split('\n').filter((l) => l.startsWith('data:'))) {
      const data = line.slice(5).trim();
      expect(data).toBe(JSON.stringify(JSON.parse(data)));
    }
  }
  for (const message of reply.messages) {
    const isResponse = typeof message === 'object' && message !== null && !('method' in message);
    expectValidWire(message, MODERN, isResponse ? resultOf : undefined);
  }
}

let url: string;
beforeAll(async () => {
  url = await start();
});

describe('_meta validation order (HTTP 400)', () => {
  const call = (params: Record<string, unknown>, headers: Record<string, string>) =>
    postRaw(url, { jsonrpc: '2.0', id: 7, method: 'tools/list', params }, { 'mcp-method': 'tools/list', ...headers });

  it('a modern header without _meta is -32602', async () => {
    const reply = await call({}, { 'mcp-protocol-version': MODERN });
    expect(reply.status).toBe(400);
    expect(reply.messages[0]).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
    expectCompactAndValid(reply);
  });

  it('_meta without protocolVersion is -32602, even though the header says 2026-07-28 (not -32020)', async () => {
    const reply = await call({ _meta: { [META_CAPABILITIES]: {} } }, { 'mcp-protocol-version': MODERN });
    expect(reply.status).toBe(400);
    expect(reply.messages[0]).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  it('_meta without clientCapabilities is -32602, also on server/discover', async () => {
    const reply = await postRaw(
      url,
      { jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: { [META_VERSION]: MODERN } } },
      routingHeaders('server/discover'),
    );
    expect(reply.status).toBe(400);
    expect(reply.messages[0]).toMatchObject({ id: 'd', error: { code: -32602 } });
  });

  it('clientInfo is optional', async () => {
    const reply = await call({ _meta: { [META_VERSION]: MODERN, [META_CAPABILITIES]: {} } }, { 'mcp-protocol-version': MODERN });
    expect(reply.status).toBe(200);
    expect(reply.messages[0]).toMatchObject({ id: 7, result: { resultType: 'complete' } });
  });

  it('header ≠ _meta version is -32020 (checked before support)', async () => {
    const reply = await call({ _meta: { ...meta(), [META_VERSION]: '2099-01-01' } }, { 'mcp-protocol-version': MODERN });
    expect(reply.status).toBe(400);
    expect(reply.messages[0]).toMatchObject({ id: 7, error: { code: -32020 } });
    expectCompactAndValid(reply);
  });

  it('an unsupported version in both is -32022 with {supported, requested}', async () => {
    const reply = await call({ _meta: { ...meta(), [META_VERSION]: '2099-01-01' } }, { 'mcp-protocol-version': '2099-01-01' });
    expect(reply.status).toBe(400);
    expect(reply.messages[0]).toMatchObject({ id: 7, error: { code: -32022, data: { supported: [MODERN], requested: '2099-01-01' } } });
    expectCompactAndValid(reply);
  });

  it('the protocolVersions option restricts the accepted revisions', async () => {
    const legacyOnly = await start({ protocolVersions: ['2025-11-25'] });
    const reply = await modernRequest(legacyOnly, 1, 'tools/list');
    expect(reply.status).toBe(400);
    expect(reply.messages[0]).toMatchObject({ id: 1, error: { code: -32022, data: { supported: [], requested: MODERN } } });
  });
});

describe('batches', () => {
  it('2026-07-28 has none: each request of a batch is refused with -32600 under its own id, and nothing runs', async () => {
    const one = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: meta() } };
    const reply = await postRaw(url, [one, { ...one, id: 2 }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } }], routingHeaders('tools/call', one.params));
    expect(reply.status).toBe(400);
    expect(reply.messages).toHaveLength(1);
    const batch = reply.messages[0] as { id: unknown; error: { code: number } }[];
    expect(batch.map((r) => [r.id, r.error.code])).toEqual([[1, -32600], [2, -32600]]);
    expect(reply.text).toBe(JSON.stringify(JSON.parse(reply.text)));
  });
});

describe('restricting revisions (protocolVersions)', () => {
  const initialize = (target: string, protocolVersion: string) =>
    postRaw(target, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'legacy', version: '1' } } });

  it('a modern-only server refuses initialize, naming the versions it speaks, and opens no session', async () => {
    const modernOnly = await start({ protocolVersions: [MODERN] });
    const reply = await initialize(modernOnly, '2025-11-25');
    expect(reply.messages[0]).toMatchObject({ id: 1, error: { code: -32602, data: { supported: [MODERN], requested: '2025-11-25' } } });
    expect((reply.messages[0] as { error: { message: string } }).error.message).toContain(MODERN);
    expect(reply.headers.get('mcp-session-id')).toBeNull();
    expectValidWire(reply.messages[0], '2025-11-25');
    // …while modern requests are served.
    expect((await modernRequest(modernOnly, 2, 'tools/list')).status).toBe(200);
  });

  it('a server restricted to one legacy revision negotiates it', async () => {
    const pinned = await start({ protocolVersions: ['2025-06-18'] });
    const reply = await initialize(pinned, '2025-11-25');
    expect(reply.messages[0]).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });
  });
});

describe('methods', () => {
  it.each(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'no/such/method'])('%s is 404 -32601', async (method) => {
    const params = method === 'initialize' ? { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'x', version: '1' } } : method.startsWith('resources/') ? { uri: 'memo://one' } : method === 'logging/setLevel' ? { level: 'info' } : {};
    const reply = await modernRequest(url, 'm', method, params);
    expect(reply.status).toBe(404);
    expect(reply.messages[0]).toMatchObject({ jsonrpc: '2.0', id: 'm', error: { code: -32601 } });
    expectCompactAndValid(reply);
  });

  it('server/discover: versions, capabilities, serverInfo in _meta, cache hints', async () => {
    const reply = await modernRequest(url, 1, 'server/discover');
    expect(reply.status).toBe(200);
    const result = (reply.messages[0] as { result: Record<string, unknown> }).result;
    expect(result['supportedVersions']).toEqual([MODERN]);
    expect(result['capabilities']).toMatchObject({ tools: { listChanged: true }, prompts: { listChanged: true }, resources: {} });
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { [META_SERVER_INFO]: { name: 'modern-meta', version: '3.1.4' } } });
    expect(result).not.toHaveProperty('serverInfo');
    expectCompactAndValid(reply, 'server/discover');
  });

  const cases: [string, Record<string, unknown>, boolean][] = [
    ['tools/list', {}, true],
    ['resources/list', {}, true],
    ['resources/templates/list', {}, true],
    ['prompts/list', {}, true],
    ['resources/read', { uri: 'memo://one' }, true],
    ['tools/call', { name: 'echo', arguments: { text: 'hi' } }, false],
    ['prompts/get', { name: 'greet', arguments: { who: 'Ada' } }, false],
    ['completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' } }, false],
  ];
  it.each(cases)('%s has resultType; cache hints exactly when cacheable', async (method, params, cacheable) => {
    const reply = await modernRequest(url, 2, method, params);
    expect(reply.status).toBe(200);
    const result = (reply.messages[0] as { result: Record<string, unknown> }).result;
    expect(result['resultType']).toBe('complete');
    expect(result['_meta']).toMatchObject({ [META_SERVER_INFO]: { name: 'modern-meta', version: '3.1.4' } });
    if (cacheable) expect(result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    else {
      expect(result).not.toHaveProperty('ttlMs');
      expect(result).not.toHaveProperty('cacheScope');
    }
    expectCompactAndValid(reply, method);
  });

  it('cacheHints configure ttlMs/cacheScope per method with a default; serverInfoInMeta: false leaves _meta out', async () => {
    const tuned = await start({
      results: { cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' }, default: { ttlMs: 5_000, cacheScope: 'private' } }, serverInfoInMeta: false },
    });
    const tools = (await modernRequest(tuned, 1, 'tools/list')).messages[0] as { result: Record<string, unknown> };
    expect(tools.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
    expect(tools.result).not.toHaveProperty('_meta');
    const prompts = (await modernRequest(tuned, 2, 'prompts/list')).messages[0] as { result: Record<string, unknown> };
    expect(prompts.result).toMatchObject({ ttlMs: 5_000, cacheScope: 'private' });
    const discover = await modernRequest(tuned, 3, 'server/discover');
    expect((discover.messages[0] as { result: Record<string, unknown> }).result).toMatchObject({ ttlMs: 5_000 });
    expectCompactAndValid(discover, 'server/discover');
  });
});

describe('per-request logging and capabilities', () => {
  it('without io.modelcontextprotocol/logLevel a tool logs nothing (plain JSON answer)', async () => {
    const reply = await modernRequest(url, 3, 'tools/call', { name: 'chatty', arguments: {} });
    expect(reply.status).toBe(200);
    expect(reply.messages).toHaveLength(1);
    expect(reply.messages[0]).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'logged' }] } });
    expectCompactAndValid(reply, 'tools/call');
  });

  it('with a logLevel, messages at or above it travel on the request own SSE response, before the result', async () => {
    const reply = await modernRequest(url, 4, 'tools/call', { name: 'chatty', arguments: {} }, { metaExtra: { [META_LOG_LEVEL]: 'info' } });
    expect(reply.status).toBe(200);
    expect(reply.contentType).toMatch(/^text\/event-stream/);
    expect(reply.messages.map((m) => (m as { method?: string }).method ?? 'response')).toEqual(['notifications/message', 'notifications/message', 'response']);
    expect(reply.messages.slice(0, 2)).toMatchObject([{ params: { level: 'info', data: 'first' } }, { params: { level: 'error', data: 'second' } }]);
    expectCompactAndValid(reply, 'tools/call');
  });

  it('progress goes on the request own SSE response only when the request carries a progressToken', async () => {
    const quiet = await modernRequest(url, 'p0', 'tools/call', { name: 'steps', arguments: {} });
    expect(quiet.contentType).toMatch(/^application\/json/);
    expect(quiet.messages).toHaveLength(1);
    const loud = await modernRequest(url, 'p1', 'tools/call', { name: 'steps', arguments: {} }, { metaExtra: { progressToken: 'tok' } });
    expect(loud.contentType).toMatch(/^text\/event-stream/);
    expect(loud.messages).toMatchObject([
      { method: 'notifications/progress', params: { progressToken: 'tok', progress: 1, total: 2, message: 'half' } },
      { method: 'notifications/progress', params: { progressToken: 'tok', progress: 2, total: 2 } },
      { id: 'p1', result: { resultType: 'complete', content: [{ type: 'text', text: 'stepped' }] } },
    ]);
    expectCompactAndValid(loud, 'tools/call');
  });

  it('a tool that needs an undeclared capability is 400 -32021 with requiredCapabilities as an object', async () => {
    const reply = await modernRequest(url, 5, 'tools/call', { name: 'needs_sampling', arguments: {} }, { capabilities: {} });
    expect(reply.status).toBe(400);
    expect(reply.messages[0]).toMatchObject({ id: 5, error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } } });
    expectCompactAndValid(reply);
  });

  it('the same tool with sampling declared asks for input instead', async () => {
    const reply = await modernRequest(url, 6, 'tools/call', { name: 'needs_sampling', arguments: {} }, { capabilities: { sampling: {} } });
    expect(reply.status).toBe(200);
    expect(reply.messages[0]).toMatchObject({ id: 6, result: { resultType: 'input_required', inputRequests: { sampling_1: { method: 'sampling/createMessage' } } } });
    expectCompactAndValid(reply, 'tools/call');
  });
});
