/**
 * A resources/updated that arrives on one principal's upstream link reaches that principal only.
 * Each principal's link is its own upstream session, which may see other data (per-user upstream
 * credentials), so two principals subscribed to the same namespaced URI must not hear each
 * other's updates: here the gateway's links go to two upstream servers by owner (as two upstream
 * identities would see two data sets), and each server's update must reach its principal alone.
 * Every downstream era × upstream era, over HTTP, every downstream message schema-checked. Two
 * principals who differ only by issuer (same `sub` from two authorization servers) are two
 * principals. Updates that belong to no one owner (a mounted in-process server, a shared stdio
 * process) still reach everyone subscribed.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, serveHttp } from '../support/cleanup.js';
import { McpServer, MemoryNotificationBus, type BusEvent, type McpProvider, type McpProviderChange } from '../../src/index.js';
import { Client, InMemoryTransport, StreamableHttpTransport } from '../../src/client.js';
import type { AuthInfo } from '../../src/index.js';
import { createGateway, type LinkOwner } from '../../src/gateway.js';
import { eventually } from '../support/eventually.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { wireFetch, type WireFetch } from './wire-fetch.js';

const EVERYTHING = join(fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url)), 'server-everything/dist/index.js');

const cleanup = cleanupAfterEach();

type Era = typeof LEGACY | typeof MODERN;

/** Downstream principals by bearer token: `alice`, `bob`; `alice@a` and `alice@b` are subject alice from two issuers. */
const byToken = (request: { headers: Record<string, string | undefined> }): unknown => {
  const token = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
  const [subject, issuer] = token.split('@');
  return { token, clientId: 'app', scopes: [], subject: subject === '' ? undefined : subject, ...(issuer === undefined ? {} : { extra: { iss: `https://${issuer}.example` } }) };
};

function notes(era: Era | undefined): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0', ...(era === LEGACY ? { protocolVersions: [LEGACY] as const } : {}) });
  server.resource('note://a', { name: 'a' }, () => 'A');
  return server;
}

/** A downstream client over HTTP, or (`memory`) in process: a connection without a session id, as over stdio. */
async function client(url: string | McpServer, version: Era, token: string): Promise<{ client: Client; wire: WireFetch; got: string[] }> {
  const wire = wireFetch(version);
  const c = new Client({ protocolVersion: version });
  const authInfo = byToken({ headers: { authorization: `Bearer ${token}` } }) as AuthInfo;
  await c.connect(typeof url === 'string' ? new StreamableHttpTransport(url, { fetch: wire.fetch, headers: { authorization: `Bearer ${token}` } }) : new InMemoryTransport(url, { authInfo }));
  cleanup.push(() => c.close());
  const got: string[] = [];
  c.on('notifications/resources/updated', (params) => void got.push(String(params['uri'])));
  return { client: c, wire, got };
}

/** Subscribes `c` to `uri` in its era; returns the end of the subscription. */
async function subscribe(c: Client, version: Era, uri: string): Promise<() => Promise<void>> {
  if (version === LEGACY) {
    await c.subscribeResource(uri);
    return async () => void (await c.unsubscribeResource(uri));
  }
  const controller = new AbortController();
  const acked = new Promise<void>((resolve) => {
    const off = c.on('notifications/subscriptions/acknowledged', () => (off(), resolve()));
  });
  const listening = c.listen({ resourceSubscriptions: [uri] }, { signal: controller.signal });
  cleanup.push(async () => (controller.abort(), await listening));
  await acked;
  return async () => {
    controller.abort();
    await listening;
  };
}

/** Touches until `got` grows (a legacy upstream's GET stream may not be open yet), waiting a while between touches. */
async function warmUp(touch: () => Promise<void>, got: string[]): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const before = got.length;
    await touch();
    const until = Date.now() + 200;
    while (got.length === before && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
    if (got.length > before) return;
  }
  throw new Error('no update ever arrived');
}

/**
 * Two downstream principals (`tokens`), both subscribed to `up+note://a`; the gateway's links go to
 * upstream A or B by `toB(owner)`. Each upstream's update must reach its own principal only.
 */
async function twoPrincipals(version: Era, upstreamEra: Era, tokens: [string, string], toB: (owner: LinkOwner) => boolean, via: 'http' | 'memory' = 'http'): Promise<void> {
  const a = notes(upstreamEra === LEGACY ? LEGACY : undefined);
  const b = notes(upstreamEra === LEGACY ? LEGACY : undefined);
  const [urlA, urlB] = [(await serveHttp(cleanup, a)).url, (await serveHttp(cleanup, b)).url];
  const gateway = createGateway({ mcpServers: { up: { url: urlA } } }, { proxy: { transport: (owner) => new StreamableHttpTransport(toB(owner) ? urlB : urlA) } });
  cleanup.push(() => gateway.close());
  // A mounted in-process server is nobody's in particular: its updates reach every subscriber.
  const local = notes(undefined);
  gateway.server.mount(local, { namespace: 'local' });
  expect(await gateway.ready()).toEqual([]);
  const url = via === 'memory' ? gateway.server : (await serveHttp(cleanup, gateway.server, { authenticate: byToken as never })).url;
  const first = await client(url, version, tokens[0]);
  const second = await client(url, version, tokens[1]);
  const ends: (() => Promise<void>)[] = [];
  for (const c of [first, second]) {
    ends.push(await subscribe(c.client, version, 'up+note://a'));
    await subscribe(c.client, version, 'local+note://a');
  }
  await warmUp(() => a.notifyResourceUpdated('note://a'), first.got);
  await warmUp(() => b.notifyResourceUpdated('note://a'), second.got);
  first.got.splice(0);
  second.got.splice(0);
  // Each touch is awaited at its own principal; the other's stream would have it first if it leaked.
  for (let round = 1; round <= 2; round++) {
    await a.notifyResourceUpdated('note://a');
    await eventually(() => first.got.length >= round, { message: `${tokens[0]} hears upstream A` });
    await b.notifyResourceUpdated('note://a');
    await eventually(() => second.got.length >= round, { message: `${tokens[1]} hears upstream B` });
  }
  await local.notifyResourceUpdated('note://a');
  await eventually(() => first.got.length > 2 && second.got.length > 2, { message: 'both hear the mounted server' });
  expect(first.got).toEqual(['up+note://a', 'up+note://a', 'local+note://a']);
  expect(second.got).toEqual(['up+note://a', 'up+note://a', 'local+note://a']);
  // The other principal ending its subscription ends only its own: the first still hears upstream A.
  await ends[1]!();
  await a.notifyResourceUpdated('note://a');
  await eventually(() => first.got.length > 3, { message: `${tokens[0]} still hears upstream A` });
  expect(first.got.at(-1)).toBe('up+note://a');
  for (const { wire } of [first, second]) expect(wire.problems).toEqual([]);
}

describe.each([LEGACY, MODERN] as const)('%s downstream', (version) => {
  describe.each([LEGACY, MODERN] as const)('%s upstream', (upstreamEra) => {
    it('an update on one principal\'s upstream link reaches that principal, not another subscribed to the same URI', async () => {
      await twoPrincipals(version, upstreamEra, ['alice', 'bob'], (owner) => owner.principal === 'bob');
    }, 30_000);

    it('the same subject from two issuers is two principals: two links, and neither hears the other\'s updates', async () => {
      await twoPrincipals(version, upstreamEra, ['alice@a', 'alice@b'], (owner) => owner.issuer === 'https://b.example');
    }, 30_000);
  });
});

describe('in process (no session id, as over stdio): each connection hears its own principal\'s link', () => {
  it.each([LEGACY, MODERN] as const)('%s upstream', async (upstreamEra) => {
    await twoPrincipals(LEGACY, upstreamEra, ['alice', 'bob'], (owner) => owner.principal === 'bob', 'memory');
  }, 30_000);
});

describe('spawn: "shared": one process for everybody, so its updates reach every subscriber', () => {
  it.each([LEGACY, MODERN] as const)('%s downstream', async (version) => {
    const gateway = createGateway({ mcpServers: { up: { command: process.execPath, args: [EVERYTHING, 'stdio'], spawn: 'shared' } } }, { proxy: { onStderr: () => undefined } });
    cleanup.push(() => gateway.close());
    const url = (await serveHttp(cleanup, gateway.server, { authenticate: byToken as never })).url;
    const alice = await client(url, version, 'alice');
    const bob = await client(url, version, 'bob');
    const uri = 'up+demo://resource/dynamic/text/1';
    await subscribe(alice.client, version, uri);
    await subscribe(bob.client, version, uri);
    // Its tool sends resources/updated at once for every URI its process subscribed to.
    await alice.client.callTool('up_toggle-subscriber-updates', {});
    await eventually(() => alice.got.length > 0 && bob.got.length > 0, { message: 'both hear the shared process' });
    expect(new Set([...alice.got, ...bob.got])).toEqual(new Set([uri]));
    for (const { wire } of [alice, bob]) expect(wire.problems).toEqual([]);
  }, 30_000);
});

describe('a provider scoping its own updates', () => {
  it('the audience survives a namespace and reaches the bus as it was given', () => {
    const events: BusEvent[] = [];
    const bus = new MemoryNotificationBus();
    bus.subscribe((event) => void events.push(event));
    const server = new McpServer({ name: 'scoped', version: '1.0.0', bus });
    let emit: ((change: McpProviderChange) => void) | undefined;
    const provider: McpProvider = { listResources: () => [], onChange: (listener) => ((emit = listener), () => undefined) };
    server.mount(provider, { namespace: 'p' });
    emit!({ type: 'resource_updated', uri: 'x://1', to: { principal: 'sub:alice' } });
    emit!({ type: 'resource_updated', uri: 'x://2' });
    expect(events.filter((e) => e.type === 'resource_updated')).toEqual([
      { type: 'resource_updated', uri: 'p+x://1', to: { principal: 'sub:alice' } },
      { type: 'resource_updated', uri: 'p+x://2' },
    ]);
  });
});
