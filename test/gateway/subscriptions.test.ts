/**
 * resources/updated through the gateway for every pairing of downstream era (legacy session,
 * 2026-07-28 subscriptions/listen) and upstream (mcpkit legacy, mcpkit 2026-07-28,
 * server-everything over stdio), over the wire, every message the gateway sends downstream
 * validated against its revision's schema: the subscriber gets the update with the namespaced
 * URI, an unsubscribed client and another principal get nothing, and the end of the listen
 * stream unsubscribes upstream. Mounts (`server.mount`) too.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, serveHttp } from '../support/cleanup.js';
import { McpServer } from '../../src/index.js';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { createGateway } from '../../src/gateway.js';
import { eventually } from '../support/eventually.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { wireFetch, type WireFetch } from './wire-fetch.js';

const EVERYTHING = join(fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url)), 'server-everything/dist/index.js');

const cleanup = cleanupAfterEach();

type Era = typeof LEGACY | typeof MODERN;
type Upstream = 'mcpkit legacy' | 'mcpkit 2026-07-28' | 'server-everything';

/** What the upstream was asked: subscribe/unsubscribe, and listen streams with their URIs as they open and end. */
function recordingServer(era: Era | undefined, seen: string[]): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0', ...(era === LEGACY ? { protocolVersions: [LEGACY] as const } : {}) });
  server.resource('note://a', { name: 'a' }, () => 'A');
  server.resource('note://b', { name: 'b' }, () => 'B');
  server.use(async (ctx, next) => {
    const params = ctx.params as { uri?: string; notifications?: { resourceSubscriptions?: string[] } };
    if (ctx.method === 'resources/subscribe' || ctx.method === 'resources/unsubscribe') seen.push(`${ctx.method} ${params.uri}`);
    const uris = params.notifications?.resourceSubscriptions;
    if (ctx.method !== 'subscriptions/listen' || uris === undefined) return next();
    seen.push(`listen [${uris.join(',')}]`);
    try {
      return await next();
    } finally {
      seen.push(`ended [${uris.join(',')}]`);
    }
  });
  return server;
}

/** Downstream principals by bearer token: "alice", "bob". */
const byToken = (request: { headers: Record<string, string | undefined> }): unknown => {
  const token = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
  return { token, clientId: 'app', scopes: [], subject: token === '' ? undefined : token };
};

interface Setup {
  url: string;
  uri: string;
  /** Makes the upstream send resources/updated for the subscribed resource (to `client`'s upstream link). */
  touch: (client: Client) => Promise<void>;
  seen: string[];
}

async function setUp(upstream: Upstream): Promise<Setup> {
  const seen: string[] = [];
  if (upstream === 'server-everything') {
    const gateway = createGateway({ mcpServers: { up: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }, { proxy: { onStderr: () => undefined } });
    cleanup.push(() => gateway.close());
    const url = (await serveHttp(cleanup, gateway.server, { authenticate: byToken as never })).url;
    // Its tool sends resources/updated at once for every URI its process (this client's link) subscribed to.
    return { url, uri: 'up+demo://resource/dynamic/text/1', seen, touch: async (client) => void (await client.callTool('up_toggle-subscriber-updates', {})) };
  }
  const server = recordingServer(upstream === 'mcpkit legacy' ? LEGACY : undefined, seen);
  const up = await serveHttp(cleanup, server);
  const gateway = createGateway({ mcpServers: { up: { url: up.url } } });
  cleanup.push(() => gateway.close());
  expect(await gateway.ready()).toEqual([]);
  const url = (await serveHttp(cleanup, gateway.server, { authenticate: byToken as never })).url;
  return { url, uri: 'up+note://a', seen, touch: () => server.notifyResourceUpdated('note://a') };
}

async function client(url: string, version: Era, token: string): Promise<{ client: Client; wire: WireFetch }> {
  const wire = wireFetch(version);
  const c = new Client({ protocolVersion: version });
  await c.connect(new StreamableHttpTransport(url, { fetch: wire.fetch, headers: { authorization: `Bearer ${token}` } }));
  cleanup.push(() => c.close());
  return { client: c, wire };
}

function updatesOf(c: Client): string[] {
  const uris: string[] = [];
  c.on('notifications/resources/updated', (params) => void uris.push(String(params['uri'])));
  return uris;
}

/** Subscribes `c` to `uri` in its era; returns the end of the subscription. */
async function subscribe(c: Client, version: Era, uri: string): Promise<() => Promise<void>> {
  if (version === LEGACY) {
    await c.subscribeResource(uri);
    return () => c.unsubscribeResource(uri);
  }
  const controller = new AbortController();
  const acked = new Promise<void>((resolve) => c.on('notifications/subscriptions/acknowledged', () => resolve()));
  const listening = c.listen({ resourceSubscriptions: [uri] }, { signal: controller.signal });
  await acked;
  cleanup.push(async () => (controller.abort(), await listening));
  return async () => {
    controller.abort();
    await listening;
  };
}

describe.each([LEGACY, MODERN] as const)('%s downstream', (version) => {
  describe.each(['mcpkit legacy', 'mcpkit 2026-07-28', 'server-everything'] as const)('upstream %s', (upstream) => {
    it('the subscriber gets resources/updated with the namespaced URI; an unsubscribed client and another principal get nothing', async () => {
      const { url, uri, touch, seen } = await setUp(upstream);
      const alice = await client(url, version, 'alice');
      const quiet = await client(url, version, 'alice');
      const bob = await client(url, version, 'bob');
      const [got, quietGot, bobGot] = [updatesOf(alice.client), updatesOf(quiet.client), updatesOf(bob.client)];
      // Bob listens to another resource of the same upstream: he must not hear about this one.
      await bob.client.callTool(upstream === 'server-everything' ? 'up_echo' : 'nothing', { message: 'x' }).catch(() => undefined);
      const end = await subscribe(alice.client, version, uri);
      await eventually(async () => {
        await touch(alice.client);
        return got.length > 0;
      });
      expect(new Set(got)).toEqual(new Set([uri]));
      if (version === LEGACY) expect(quietGot).toEqual([]); // another session of the same principal
      expect(bobGot).toEqual([]);
      await end();
      if (upstream === 'mcpkit legacy') await eventually(() => seen.includes('resources/unsubscribe note://a'));
      if (upstream === 'mcpkit 2026-07-28' && version === MODERN) await eventually(() => seen.includes('ended [note://a]') && seen.filter((s) => s.startsWith('listen [')).every((s) => s === 'listen [note://a]'));
      for (const { wire } of [alice, quiet, bob]) expect(wire.problems).toEqual([]);
    }, 30_000);
  });
});

describe('2026-07-28 listen streams of one principal share one upstream subscription', () => {
  it('the upstream keeps the URI until the last stream ends, then unsubscribes', async () => {
    const { url, seen } = await setUp('mcpkit 2026-07-28');
    const alice = await client(url, MODERN, 'alice');
    const first = await subscribe(alice.client, MODERN, 'up+note://a');
    const second = await subscribe(alice.client, MODERN, 'up+note://a');
    await eventually(() => seen.includes('listen [note://a]'));
    await first();
    const opened = seen.filter((s) => s.startsWith('listen [')).length;
    expect(seen).not.toContain('ended [note://a]');
    await second();
    await eventually(() => seen.includes('ended [note://a]'));
    expect(seen.filter((s) => s.startsWith('listen [')).length).toBe(opened);
    expect(alice.wire.problems).toEqual([]);
  });

  it('an unknown URI is left out of the acknowledged filter and never sent upstream', async () => {
    const { url, seen } = await setUp('mcpkit 2026-07-28');
    const alice = await client(url, MODERN, 'alice');
    const acks: unknown[] = [];
    alice.client.on('notifications/subscriptions/acknowledged', (params) => void acks.push(params['notifications']));
    const controller = new AbortController();
    const listening = alice.client.listen({ resourceSubscriptions: ['up+note://a', 'nothing://here'] }, { signal: controller.signal });
    cleanup.push(async () => (controller.abort(), await listening));
    await eventually(() => acks.length > 0);
    expect(acks[0]).toEqual({ resourceSubscriptions: ['up+note://a'] });
    await eventually(() => seen.includes('listen [note://a]'));
    expect(alice.wire.problems).toEqual([]);
  });
});

describe('mounts: a mounted server\'s resource updates reach a 2026-07-28 listen and a legacy session', () => {
  it.each([LEGACY, MODERN] as const)('%s downstream', async (version) => {
    const inner = new McpServer({ name: 'inner', version: '1.0.0' });
    inner.resource('note://7', { name: 'seven' }, () => '7');
    inner.resource('note://8', { name: 'eight' }, () => '8');
    const outer = new McpServer({ name: 'outer', version: '1.0.0' });
    outer.mount(inner, { namespace: 'docs' });
    const { url } = await serveHttp(cleanup, outer, { authenticate: byToken as never });
    const alice = await client(url, version, 'alice');
    const bob = await client(url, version, 'bob');
    const [got, bobGot] = [updatesOf(alice.client), updatesOf(bob.client)];
    await subscribe(alice.client, version, 'docs+note://7');
    await subscribe(bob.client, version, 'docs+note://8');
    await inner.notifyResourceUpdated('note://7');
    await eventually(() => got.length > 0);
    expect(got).toEqual(['docs+note://7']);
    expect(bobGot).toEqual([]);
    for (const { wire } of [alice, bob]) expect(wire.problems).toEqual([]);
  });
});
