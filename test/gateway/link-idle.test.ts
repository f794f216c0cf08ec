/**
 * The idle policy of the upstream link pool (linkIdleMs): a 2026-07-28 principal's link is never
 * closed by its owner, so one idle past linkIdleMs (nothing in flight or held, no subscription) is
 * closed, by the sweep or to make room when the pool is full. Without it a gateway stopped serving
 * new principals once maxLinks of them had come by. A link of another principal idle for less is
 * never closed to make room.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveEntry } from '../../src/util/live-list.js';
import { McpServer } from '../../src/index.js';
import { listen } from '../../src/adapters/node.js';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { createGateway } from '../../src/gateway.js';
import { HoldTable } from '../../src/gateway/hold.js';
import { createProxy } from '../../src/gateway/proxy.js';
import { UpstreamError, type LinkOwner } from '../../src/gateway/upstream.js';
import { UpstreamPool, type UpstreamPoolOptions } from '../../src/gateway/upstream-pool.js';
import { eventually } from '../support/eventually.js';
import { MODERN } from '../support/revisions.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

// Links are created, not connected: nothing here reaches the (unused) URL.
const pool = (maxLinks: number, more: Partial<UpstreamPoolOptions> = {}): UpstreamPool => {
  const p = new UpstreamPool({ name: 'up', config: { url: 'http://127.0.0.1:9/mcp' }, maxLinks, relay: () => Promise.reject(new Error('unused')), onNotification: () => undefined, ...more });
  cleanup.push(() => p.close());
  return p;
};

const principal = (name: string): LinkOwner => ({ sessionId: undefined, principal: name, issuer: undefined, id: `sub:${name}` });

describe('linkIdleMs: making room', () => {
  it('a full pool closes a link of any principal idle past linkIdleMs for a new principal', () => {
    const links = pool(4, { linkIdleMs: 60_000 });
    for (const name of ['a', 'b', 'c', 'd']) links.linkFor(principal(name)).lastUsed -= 120_000;
    for (const name of ['e', 'f', 'g', 'h', 'i']) {
      expect(links.linkFor(principal(name)).owner.principal).toBe(name);
      links.linkFor(principal(name)).lastUsed -= 120_000;
    }
    expect(links.links.length).toBeLessThanOrEqual(4);
  });

  it('a link of another principal idle for less than linkIdleMs is never closed: the new principal is refused', () => {
    const links = pool(4, { linkIdleMs: 60_000 });
    for (const name of ['a', 'b', 'c']) links.linkFor(principal(name));
    // Idle long, but kept by what it carries: a call in flight, a held call, subscriptions.
    const busy = links.linkFor(principal('d'));
    busy.inFlight.add(new LiveEntry({}));
    busy.lastUsed -= 120_000;
    expect(() => links.linkFor(principal('e'))).toThrow(UpstreamError);
    expect(() => links.linkFor(principal('e'))).toThrow('upstream "up": 4 links are open (maxLinks), none idle longer than linkIdleMs (60000 ms), and none of this principal\'s is idle (each has a call, a subscription or an upstream request on it); try again when one ends');
    expect(links.links.map((l) => l.owner.principal)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('the sweep closes idle links and keeps one with a call in flight, a held call or a subscription', async () => {
    const held = new Set<string>();
    const links = pool(16, { linkIdleMs: 5, heldLinks: () => held });
    const inFlight = links.linkFor(principal('in-flight'));
    inFlight.inFlight.add(new LiveEntry({}));
    held.add(links.linkFor(principal('held')).key);
    links.linkFor(principal('subscribed')).subscriptions.add('note://a');
    const session = links.linkFor({ sessionId: 's1', principal: 'legacy', issuer: undefined, id: 'sub:legacy' });
    links.linkFor(principal('idle'));
    await eventually(() => !links.links.some((l) => l.owner.principal === 'idle'), { message: 'the idle link closed' });
    expect(links.links.map((l) => l.owner.principal).sort()).toEqual(['held', 'in-flight', 'legacy', 'subscribed']);
    expect(links.links).toContain(session);
    // Once what kept it ends, it goes too.
    inFlight.inFlight.clear();
    held.clear();
    await eventually(() => links.links.length === 2, { message: 'the released links closed' });
    expect(links.links.map((l) => l.owner.principal).sort()).toEqual(['legacy', 'subscribed']);
  });
});

describe('held calls', () => {
  it('the proxy\'s hold table names the link of every call running or held, until it is dropped', () => {
    const holds = new HoldTable(60_000);
    cleanup.push(async () => holds.clear());
    holds.open('one', 'p:sub:alice', new Promise(() => undefined), () => undefined);
    holds.open('two', 'p:sub:alice', new Promise(() => undefined), () => undefined);
    expect([...holds.linkKeys()]).toEqual(['p:sub:alice']);
    holds.drop('one');
    expect([...holds.linkKeys()]).toEqual(['p:sub:alice']);
    holds.drop('two');
    expect(holds.linkKeys().size).toBe(0);
  });
});

describe('linkIdleMs through the gateway', () => {
  const textOf = (result: { content?: unknown }): string => ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

  it('more distinct 2026-07-28 principals than maxLinks are all served once the earlier ones went idle; a call in flight keeps its link', async () => {
    const upstream = new McpServer({ name: 'up', version: '1.0.0' });
    upstream.tool('echo', { description: 'echo' }, () => 'ok');
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    upstream.tool('wait', { description: 'answers once released' }, async () => (await released, 'done'));
    const up = await listen(upstream, { port: 0 });
    cleanup.push(() => up.close());
    const gateway = createGateway({ mcpServers: { up: { url: up.url } } }, { proxy: { maxLinks: 4, linkIdleMs: 20 } });
    cleanup.push(() => gateway.close());
    const byToken = (request: { headers: Record<string, string | undefined> }): unknown => {
      const token = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      return { token, clientId: 'app', scopes: [], subject: token };
    };
    const served = await listen(gateway.server, { port: 0, authenticate: byToken as never });
    cleanup.push(() => served.close());
    const connect = async (token: string): Promise<Client> => {
      const client = new Client({ protocolVersion: MODERN });
      await client.connect(new StreamableHttpTransport(served.url, { headers: { authorization: `Bearer ${token}` } }));
      cleanup.push(() => client.close());
      return client;
    };
    // A call in flight keeps its link through every sweep and every round of making room.
    const slow = (await connect('slow')).callTool('up_wait', {});
    for (let i = 0; i < 10; i++) {
      const client = await connect(`user-${i}`);
      // Refused while the pool is full of links idle for less than linkIdleMs; served once one expired.
      let text = '';
      await eventually(async () => (text = textOf(await client.callTool('up_echo', {}).catch(() => ({ content: [] })))) === 'ok', { deadlineMs: 3000, message: `user-${i} served` });
      expect(text).toBe('ok');
    }
    release();
    expect(textOf(await slow)).toBe('done');
  });

  it('a misspelt or invalid linkIdleMs is a precise error', () => {
    const config = { url: 'http://127.0.0.1:9/mcp' };
    expect(() => createProxy(config, { linkIdleMS: 10 } as never)).toThrow(/linkIdleMS.*linkIdleMs/);
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, 2 ** 31, '300000']) {
      expect(() => createProxy(config, { linkIdleMs: bad as never })).toThrow(new RangeError(`createProxy() options: linkIdleMs must be a whole number of milliseconds from 1 to 2147483647 (got ${typeof bad === 'number' ? bad : JSON.stringify(bad)})`));
    }
    expect(() => createGateway(config, { proxy: { linkIdleMs: -5 } })).toThrow(/linkIdleMs must be a whole number.*got -5/);
    const proxy = createProxy(config, { linkIdleMs: 1000 });
    cleanup.push(() => proxy.close());
  });
});
