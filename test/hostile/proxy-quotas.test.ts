/**
 * Per-client quotas behind a reverse proxy (`trustProxy`): two clients reach the
 * server through a real proxy (test/support/reverse-proxy.ts, appending
 * X-Forwarded-For as nginx does) from distinct loopback addresses. With the
 * proxy trusted, one client exhausting its sessions and tasks leaves the other
 * unaffected; a spoofed header from a peer that is not trusted changes nothing;
 * with trustProxy off the header is ignored (both share the proxy's quota).
 * Every adapter (node, fetch, Express, Fastify, Hono), on the memory stores and on Redis.
 */
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import type { HttpEngineOptions } from '../../src/http.js';
import { createRedisState } from '../../src/redis.js';
import { MemoryTaskStore } from '../../src/stores/tasks.js';
import { meta, MODERN, routingHeaders } from '../fixtures/modern-http.mjs';
import { initializeBody, type TestServer } from '../transports/http/support.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { startReverseProxy, type ReverseProxy } from '../support/reverse-proxy.js';
import { expectValidWire } from '../support/wire-schema.js';
import { freshPrefix } from '../redis/support.js';
import { ADAPTERS, requestFrom, startFastify, startHono, type RawResponse, type Start } from './sessions-support.js';
import { WITH_TASKS, type Json } from './tasks-support.js';

const SESSIONS = 3;
const TASKS = 2;
const KEY = 'proxy-quotas-test-key-0123456789abcdef';
const none = { type: 'object', properties: {} } as const;

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.close();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Store = 'memory' | 'redis';

/** The server's parts for one store: the McpServer config and the engine options. */
async function stateFor(store: Store): Promise<{ server: Record<string, unknown>; http: HttpEngineOptions }> {
  if (store === 'memory') return { server: { tasks: { store: new MemoryTaskStore({ maxTasksPerOwner: TASKS }) } }, http: {} };
  const client = createClient({ url: redis.url });
  client.on('error', () => undefined);
  await client.connect();
  const state = await createRedisState({ client, prefix: freshPrefix(), stateKeys: [KEY], tasks: { maxTasksPerOwner: TASKS } });
  cleanups.push(async () => {
    await state.close();
    await client.close();
  });
  return { server: state.server, http: state.http };
}

async function serve(start: (typeof ADAPTERS)[number][1], store: Store, options: HttpEngineOptions): Promise<{ server: TestServer; proxy: ReverseProxy }> {
  const state = await stateFor(store);
  const mcp = new McpServer({ name: 'proxy-quotas', version: '1.0.0', ...state.server });
  mcp.tool('hang', { input: none, task: 'optional' }, (_args, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))));
  mcp.tool('whoami', { input: none }, (_args, ctx) => `${ctx.requestInfo?.clientAddress ?? '?'} ${ctx.requestInfo?.remoteAddress ?? '?'}`);
  const server = await start(mcp, { limits: { maxSessionsPerClient: SESSIONS }, ...state.http, ...options } as HttpEngineOptions);
  cleanups.push(() => server.close());
  const proxy = await startReverseProxy(server.url);
  cleanups.push(() => proxy.close());
  return { server, proxy };
}

function initialize(url: string, from: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return requestFrom(url, { localAddress: from, headers, body: initializeBody(3) });
}

let nextId = 1;
async function modernCall(url: string, from: string, name: string, headers: Record<string, string> = {}): Promise<Json> {
  const params = { name, arguments: {} };
  const response = await requestFrom(url, {
    localAddress: from,
    headers: { ...routingHeaders('tools/call', params), ...headers },
    body: { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { ...params, _meta: meta(WITH_TASKS) } },
  });
  expect(response.status).toBe(200);
  const message = JSON.parse(response.body) as Json;
  expectValidWire(message, MODERN);
  return message;
}

function expectSession(response: RawResponse): void {
  expect(response.status, response.body).toBe(200);
}

function expectTooManySessions(response: RawResponse): void {
  expect(response.status).toBe(429);
  expect(JSON.parse(response.body)).toEqual({
    jsonrpc: '2.0',
    id: 3,
    error: {
      code: -32600,
      message: `Too many sessions: this client holds its maximum of ${SESSIONS} sessions (maxSessionsPerClient); end unused sessions with DELETE, or retry after one expires`,
    },
  });
}

const TOO_MANY_TASKS = {
  code: -32603,
  message: `Too many tasks: this client already has ${TASKS} tasks (the limit is ${TASKS}); wait for them to finish and expire, or cancel some`,
  data: { limit: 'maxTasksPerOwner' },
};

/** Client A (127.0.0.2) takes every session and task it may have. */
async function exhaust(url: string, from = '127.0.0.2', headers: () => Record<string, string> = () => ({})): Promise<void> {
  for (let i = 0; i < SESSIONS; i++) expectSession(await initialize(url, from, headers()));
  expectTooManySessions(await initialize(url, from, headers()));
  for (let i = 0; i < TASKS; i++) expect((await modernCall(url, from, 'hang', headers()))['result']).toMatchObject({ resultType: 'task' });
  expect((await modernCall(url, from, 'hang', headers()))['error']).toEqual(TOO_MANY_TASKS);
}

const STORES: Store[] = ['memory', 'redis'];
/** Fastify and Hono too: they hand the engine the socket's peer through the node and fetch handlers. */
const EVERY_ADAPTER: [string, Start][] = [...ADAPTERS, ['fastify', startFastify], ['hono', startHono]];

describe.each(EVERY_ADAPTER)('trustProxy (%s adapter)', (_name, start) => {
  describe.each(STORES)('on the %s stores', (store) => {
    it.each([
      ['a hop count', 1],
      ['the proxy\'s address', ['127.0.0.1']],
      ['a CIDR range as one string', '127.0.0.0/8, ::1'],
    ] as const)('trusted by %s: one client behind the proxy exhausting its quotas leaves the other unaffected', async (_how, trustProxy) => {
      const { proxy } = await serve(start, store, { security: { trustProxy } });
      await exhaust(proxy.url);
      expectSession(await initialize(proxy.url, '127.0.0.3'));
      expect((await modernCall(proxy.url, '127.0.0.3', 'hang'))['result']).toMatchObject({ resultType: 'task' });
      // Handlers see the forwarded client (ctx.requestInfo), and its quota key.
      expect((await modernCall(proxy.url, '127.0.0.3', 'whoami'))['result']).toMatchObject({ content: [{ type: 'text', text: '127.0.0.3 127.0.0.3' }] });
    });

    it('a spoofed X-Forwarded-For or Forwarded from a peer that is not trusted changes nothing', async () => {
      const { server } = await serve(start, store, { security: { trustProxy: ['127.0.0.1'] } });
      let spoof = 10;
      // Straight to the server from 127.0.0.2, claiming a fresh address each time: still one client.
      await exhaust(server.url, '127.0.0.2', () => ({ 'x-forwarded-for': `127.0.0.${spoof++}`, forwarded: `for=127.0.0.${spoof++}` }));
      expect((await modernCall(server.url, '127.0.0.2', 'whoami', { 'x-forwarded-for': '127.0.0.99' }))['result']).toMatchObject({ content: [{ type: 'text', text: '127.0.0.2 127.0.0.2' }] });
      expectSession(await initialize(server.url, '127.0.0.3'));
    });

    it('with trustProxy off the header is ignored: every client behind the proxy shares its quota', async () => {
      const { proxy } = await serve(start, store, {});
      await exhaust(proxy.url);
      expectTooManySessions(await initialize(proxy.url, '127.0.0.3'));
      expect((await modernCall(proxy.url, '127.0.0.3', 'hang'))['error']).toEqual(TOO_MANY_TASKS);
    });
  });
});

describe('the balancer\'s public Host', () => {
  it('is refused with a 403 that says the defaults hold for the local port only, and served once in allowedHosts', async () => {
    const start = ADAPTERS[0]![1];
    const mcp = new McpServer({ name: 'proxy-host', version: '1.0.0' });
    const direct = await start(mcp, { security: { trustProxy: 1 } });
    cleanups.push(() => direct.close());
    const proxy = await startReverseProxy(direct.url, { preserveHost: true });
    cleanups.push(() => proxy.close());
    const publicHost = new URL(proxy.url).host;
    const refused = await initialize(proxy.url, '127.0.0.2');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message:
          `Forbidden: Host "${publicHost}" is not allowed (allowed: localhost, 127.0.0.1, [::1], on port ${direct.port} only). ` +
          'This guards against DNS rebinding; if the name is yours (a load balancer\'s public Host), add it to allowedHosts: ' +
          'a bare name ("mcp.example.com") allows it on any port, "name:port" on that port.',
      },
    });

    const listed = await start(mcp, { security: { trustProxy: 1, allowedHosts: ['127.0.0.1'] } });
    cleanups.push(() => listed.close());
    const through = await startReverseProxy(listed.url, { preserveHost: true });
    cleanups.push(() => through.close());
    expectSession(await initialize(through.url, '127.0.0.2'));
  });
});
