/**
 * `resources/subscribe` on legacy sessions (and `subscriptions/listen` streams): only known resources, bounded per
 * session in count, bytes and URI length, released when the session ends.
 * Real HTTP server with the official v1 SDK client, raw HTTP batches, and the
 * stdio fixture process.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { MODERN, modernRequest } from '../fixtures/modern-http.mjs';
import { killAll, spawnFixture } from '../support/process.js';
import { expectValidWire } from '../support/wire-schema.js';
import { DEFAULT_REVISION, harness } from '../support/wire.js';
import { heapAfterGc, sdkRefusal, type Json } from './tasks-support.js';

function build(options: { limits?: { maxSubscriptionsPerSession?: number; maxSubscriptionBytesPerSession?: number } } = {}): McpServer {
  // Batches of 1,000 subscriptions: above the default batch limit.
  const server = new McpServer({ name: 'subscriptions', version: '1.0.0', limits: { maxBatchSize: 2000, ...options.limits } });
  server.resource('mem://greeting', { name: 'greeting' }, () => 'hello');
  server.resourceTemplate('mem://items/{id}', { name: 'item' }, (_uri, vars) => `item ${String(vars['id'])}`);
  return server;
}

let listener: McpHttpListener;
const clients: Client[] = [];

beforeAll(async () => {
  listener = await listen(build({ limits: { maxSubscriptionsPerSession: 3, maxSubscriptionBytesPerSession: 100 } }), { port: 0, host: '127.0.0.1', keepAliveMs: 0 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await killAll();
});
afterAll(() => listener.close());

async function sdkClient(): Promise<Client> {
  const client = new Client({ name: 'v1', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  clients.push(client);
  return client;
}


describe('resources/subscribe over HTTP (official v1 client)', () => {
  it('refuses a resource that does not exist with -32002 and accepts static and templated ones', async () => {
    const client = await sdkClient();
    expect(await sdkRefusal(client.subscribeResource({ uri: 'mem://nope' }))).toEqual({ code: -32002, message: 'MCP error -32002: Resource not found: mem://nope', data: { uri: 'mem://nope' } });
    expect(await client.subscribeResource({ uri: 'mem://greeting' })).toEqual({});
    expect(await client.subscribeResource({ uri: 'mem://items/7' })).toEqual({});
  });

  it('bounds the count per session; unsubscribing makes room; another session is unaffected', async () => {
    const client = await sdkClient();
    for (const id of [1, 2, 3]) await client.subscribeResource({ uri: `mem://items/${id}` });
    // Subscribing again to a URI already held costs nothing.
    await client.subscribeResource({ uri: 'mem://items/1' });
    expect(await sdkRefusal(client.subscribeResource({ uri: 'mem://items/4' }))).toEqual({
      code: -32603,
      message: 'MCP error -32603: Too many subscriptions: this session already has 3 (the limit is 3); unsubscribe from some first',
      data: { limit: 'maxSubscriptions' },
    });
    await client.unsubscribeResource({ uri: 'mem://items/2' });
    expect(await client.subscribeResource({ uri: 'mem://items/4' })).toEqual({});
    const other = await sdkClient();
    expect(await other.subscribeResource({ uri: 'mem://items/5' })).toEqual({});
  });

  it('bounds the bytes per session', async () => {
    const client = await sdkClient();
    await client.subscribeResource({ uri: `mem://items/${'a'.repeat(60)}` });
    expect(await sdkRefusal(client.subscribeResource({ uri: `mem://items/${'b'.repeat(60)}` }))).toEqual({
      code: -32603,
      message: "MCP error -32603: Too many subscriptions: this session's subscribed URIs would hold more than 100 bytes; unsubscribe from some first",
      data: { limit: 'maxSubscriptionBytes' },
    });
  });

  it('refuses a URI longer than the URI limit without echoing it', async () => {
    const client = await sdkClient();
    const uri = `mem://items/${'x'.repeat(50_000)}`;
    const refused = await sdkRefusal(client.subscribeResource({ uri }));
    expect(refused).toEqual({ code: -32002, message: `MCP error -32002: Resource URI too long: ${uri.length} characters, more than the limit of 8192 (maxUriLength)`, data: { maxUriLength: 8192 } });
  });
});

describe('resources/subscribe over stdio', () => {
  it('refuses unknown resources and the 1001st subscription of a session (default limit), in one batch', async () => {
    const server = spawnFixture();
    server.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: DEFAULT_REVISION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await server.lines.waitFor(1);
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const batch = Array.from({ length: 1001 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'resources/subscribe', params: { uri: `mem://items/${i}` } }));
    server.send(batch);
    server.send({ jsonrpc: '2.0', id: 'nope', method: 'resources/subscribe', params: { uri: 'mem://nope' } });
    await server.lines.waitFor(3);
    const nope = server.lines.messages.find((m) => (m as Json)['id'] === 'nope') as Json;
    expect(nope['error']).toEqual({ code: -32002, message: 'Resource not found: mem://nope', data: { uri: 'mem://nope' } });
    const answers = server.lines.messages.find((m) => Array.isArray(m)) as Json[];
    expect(answers).toHaveLength(1001);
    expect(answers.slice(0, 1000).every((m) => JSON.stringify(m['result']) === '{}')).toBe(true);
    expect(answers[1000]).toEqual({
      jsonrpc: '2.0',
      id: 1001,
      error: { code: -32603, message: 'Too many subscriptions: this session already has 1000 (the limit is 1000); unsubscribe from some first', data: { limit: 'maxSubscriptions' } },
    });
  });
});

describe('a session\'s subscriptions end with it', () => {
  it('closing the connection releases every subscription, and memory returns after GC', async () => {
    const server = build({ limits: { maxSubscriptionBytesPerSession: 1024 * 1024 } });
    const before = heapAfterGc();
    for (let s = 0; s < 20; s++) {
      const h = harness(server);
      await h.initialize();
      const batch = Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'resources/subscribe', params: { uri: `mem://items/${String(s)}-${String(i)}-${'p'.repeat(200)}` } }));
      const answers = (await h.send(batch)) as Json[];
      expect(answers.filter((a) => a['error'] !== undefined)).toEqual([]);
      expect(h.connection.record?.subscriptions).toHaveLength(1000);
      h.connection.close();
      expect(h.connection.session?.subscriptionCount).toBe(0);
      expect(h.connection.session?.subscriptionBytes).toBe(0);
    }
    expect(heapAfterGc() - before).toBeLessThan(3 * 1024 * 1024);
  });
});

describe('subscriptions/listen (2026-07-28)', () => {
  it('bounds the resourceSubscriptions of one stream like a session\'s', async () => {
    const modern = await listen(build({ limits: { maxSubscriptionsPerSession: 2 } }), { port: 0, host: '127.0.0.1', keepAliveMs: 0 });
    try {
      const response = await modernRequest(modern.url, 1, 'subscriptions/listen', { notifications: { resourceSubscriptions: ['mem://items/1', 'mem://items/2', 'mem://items/3'] } });
      const message = response.messages.at(-1) as Json;
      expectValidWire(message, MODERN);
      expect(message['error']).toEqual({
        code: -32603,
        message: 'Too many subscriptions: this session already has 2 (the limit is 2); unsubscribe from some first',
        data: { limit: 'maxSubscriptions' },
      });
    } finally {
      await modern.close();
    }
  });
});
