/**
 * The adapter contract: what every host adapter (node, fetch, Express, Fastify, Hono) answers alike.
 * `adapterContract(name, start)` registers the suite for one adapter; `start` serves a factory on
 * 127.0.0.1:`port` at /mcp with the engine options given. test/adapters/contract.test.ts runs it for each.
 */
import { describe, expect, it, afterEach } from 'vitest';
import type { ConnectionFactory } from '../../src/protocol/connection.js';
import type { HttpEngineOptions } from '../../src/http.js';
import { McpServer } from '../../src/index.js';
import { buildServer } from '../transports/http/fixtures.js';
import { initializeBody, messages, openSession, post, rawRequest, readEvents, rpc, sessionHeaders, type TestServer } from '../transports/http/support.js';
import { freePort } from '../support/redis.js';
import { MODERN } from '../support/revisions.js';

export type StartAdapter = (factory: ConnectionFactory, options: HttpEngineOptions, port: number) => Promise<TestServer>;

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'contract', version: '1' },
};
const modernHeaders = (method: string, name?: string): Record<string, string> => ({ 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) });

/** No answer body carries a stack trace or a source path. */
function expectNoStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at |\.ts:\d+|\.js:\d+|node_modules/);
}

export function adapterContract(name: string, start: StartAdapter): void {
  describe(`adapter contract: ${name}`, () => {
    const servers: TestServer[] = [];
    afterEach(async () => {
      for (const s of servers.splice(0)) await s.close();
    });
    const serve = async (factory: ConnectionFactory, options: HttpEngineOptions = {}): Promise<TestServer> => {
      const s = await start(factory, { stateless: false, keepAliveMs: 0, ...options }, await freePort());
      servers.push(s);
      return s;
    };

    it('refuses a foreign Host and a foreign Origin with 403, serves loopback', async () => {
      const s = await serve(buildServer().server);
      const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const body = JSON.stringify(initializeBody());
      expect((await rawRequest(s.url, { headers: { ...base, host: 'evil.example.com' }, body })).status).toBe(403);
      expect((await rawRequest(s.url, { headers: { ...base, origin: 'https://evil.example.com' }, body })).status).toBe(403);
      expect((await rawRequest(s.url, { headers: { ...base, origin: s.origin }, body })).status).toBe(200);
    });

    it('holds bodies and batches to their limits (413, 400) and parse errors to -32700, without stacks', async () => {
      const s = await serve(buildServer(undefined, { limits: { maxBatchSize: 4 } }).server, { limits: { maxBodyBytes: 4096 } });
      const session = await openSession(s.url);
      const big = await post(s.url, rpc(1, 'tools/list', { pad: 'x'.repeat(5000) }), sessionHeaders(session));
      expect(big.status).toBe(413);
      expectNoStack(await big.text());
      const batch = await post(s.url, [1, 2, 3, 4, 5].map((n) => rpc(n, 'ping')), sessionHeaders(session));
      expect(batch.status).toBe(400);
      expectNoStack(await batch.text());
      const broken = await post(s.url, '{oops', sessionHeaders(session));
      expect(broken.status).toBe(400);
      const text = await broken.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: -32700 } });
      expectNoStack(text);
    });

    it('serves both eras on one endpoint', async () => {
      const s = await serve(buildServer().server);
      const session = await openSession(s.url);
      const legacy = await post(s.url, rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }), sessionHeaders(session));
      expect(await legacy.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } });
      const modern = await post(s.url, rpc(2, 'tools/call', { name: 'echo', arguments: { text: 'yo' }, _meta: MODERN_META }), modernHeaders('tools/call', 'echo'));
      expect(modern.status).toBe(200);
      expect(await modern.json()).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'yo' }], resultType: 'complete' } });
    });

    it('streams progress over SSE and resumes a closed stream from Last-Event-ID', async () => {
      const { server, gates } = buildServer();
      const s = await serve(server);
      const session = await openSession(s.url);
      const streamed = await post(s.url, rpc(3, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 3 } }), sessionHeaders(session));
      expect(streamed.headers.get('content-type')).toBe('text/event-stream');
      const progress = messages(await readEvents(streamed)).filter((m) => 'method' in m && m.method === 'notifications/progress');
      expect(progress).toHaveLength(3);
      const polled = await post(s.url, rpc(4, 'tools/call', { name: 'poll', arguments: { gate: 'p' }, _meta: { progressToken: 4 } }), sessionHeaders(session));
      const first = await readEvents(polled);
      const lastId = first.filter((e) => e.id !== undefined).at(-1)!.id!;
      const resumed = await fetch(s.url, { headers: { accept: 'text/event-stream', 'last-event-id': lastId, ...sessionHeaders(session) } });
      expect(resumed.status).toBe(200);
      gates.open('p');
      const rest = messages(await readEvents(resumed));
      expect(rest.at(-1)).toMatchObject({ id: 4, result: { content: [{ type: 'text', text: 'polled' }] } });
    });

    it('keeps sessions apart and ends one with DELETE (204, then 404)', async () => {
      const s = await serve(buildServer().server);
      const [a, b] = [await openSession(s.url), await openSession(s.url)];
      expect(a).not.toBe(b);
      expect((await fetch(s.url, { method: 'DELETE', headers: sessionHeaders(a) })).status).toBe(204);
      expect((await post(s.url, rpc(1, 'ping'), sessionHeaders(a))).status).toBe(404);
      expect((await post(s.url, rpc(1, 'ping'), sessionHeaders(b))).status).toBe(200);
    });

    it('challenges a request without a token (401, resource metadata) and serves that metadata', async () => {
      const port = await freePort();
      const resource = `http://127.0.0.1:${port}/mcp`;
      const s = await start(buildServer().server, { stateless: false, keepAliveMs: 0, auth: { resource, authorizationServers: ['https://as.example.com'], verify: (token) => (token === 'good' ? { subject: 'u1' } : undefined) } }, port);
      servers.push(s);
      const refused = await post(s.url, initializeBody());
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${s.origin}/.well-known/oauth-protected-resource/mcp"`);
      expectNoStack(await refused.text());
      const metadata = await fetch(`${s.origin}/.well-known/oauth-protected-resource/mcp`);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toMatchObject({ resource, authorization_servers: ['https://as.example.com'] });
      expect((await post(s.url, initializeBody(), { authorization: 'Bearer good' })).status).toBe(200);
    });

    it('answers a throwing tool with isError and an internal failure with -32603, never a stack', async () => {
      const server = new McpServer({ name: 'throws', version: '1.0.0' });
      server.tool('boom', { input: { type: 'object' } }, () => {
        throw new Error('tool failed');
      });
      server.resource('memo://bad', { name: 'bad' }, () => {
        throw new Error('secret detail');
      });
      const s = await serve(server);
      const session = await openSession(s.url);
      const tool = await post(s.url, rpc(1, 'tools/call', { name: 'boom', arguments: {} }), sessionHeaders(session));
      const toolText = await tool.text();
      expect(JSON.parse(toolText)).toMatchObject({ result: { isError: true, content: [{ type: 'text', text: 'tool failed' }] } });
      expectNoStack(toolText);
      const read = await post(s.url, rpc(2, 'resources/read', { uri: 'memo://bad' }), sessionHeaders(session));
      const readText = await read.text();
      expect(JSON.parse(readText)).toMatchObject({ error: { code: -32603, message: 'Internal error' } });
      expect(readText).not.toContain('secret detail');
      expectNoStack(readText);
    });
  });
}
