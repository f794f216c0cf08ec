/**
 * RedisSessionStore on a private redis-server: records only, keys carrying the
 * principal, SET NX-like creation with a TTL, atomic updates that keep it,
 * touch on use, and a delete that clears the reverse index of subscriptions.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisSessionStore } from '../../src/redis/session-store.js';
import type { SessionRecord } from '../../src/protocol.js';
import { MemorySharedSessionStore } from '../../src/http.js';
import { describeSessionStoreContract } from '../../src/testing/index.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { closeClients, connectClient, freshPrefix, redisFixture } from './support.js';

const record = (subscriptions: string[] = [], extra: Partial<SessionRecord> = {}): SessionRecord => ({
  v: 1,
  protocolVersion: '2025-11-25',
  clientInfo: { name: 'c', version: '1' },
  clientCapabilities: { elicitation: {} },
  serverCapabilities: { tools: { listChanged: true } },
  subscriptions,
  ...extra,
});

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.close();
});
afterEach(closeClients);

describeSessionStoreContract('MemorySharedSessionStore', (options) => {
  const store = new MemorySharedSessionStore(options);
  return { instance: () => store, close: () => undefined };
}, { describe, it });

for (const resp of [2, 3] as const) {
  describeSessionStoreContract(`RedisSessionStore (RESP${resp})`, (options) => redisFixture(() => redis, resp, (client, prefix) => new RedisSessionStore(client, { ...options, prefix }), () => undefined), { describe, it });
}

async function store(idleTimeoutMs = 60_000): Promise<{ store: RedisSessionStore; prefix: string }> {
  const prefix = freshPrefix();
  return { store: new RedisSessionStore(await connectClient(redis), { prefix, idleTimeoutMs }), prefix };
}

const pttl = async (key: string): Promise<number> => Number((await redis.command('PTTL', key)).slice(1));

describe('RedisSessionStore', () => {
  it('creates once (an existing id is refused), loads what it stored, and keys by principal digest', async () => {
    const { store: s, prefix } = await store();
    expect(await s.create('s1', 'alice', { record: record(), principal: 'alice', createdAt: 5, rev: 1 })).toBe(true);
    expect(await s.create('s1', 'alice', { record: record(['x']), principal: 'alice', createdAt: 6, rev: 1 })).toBe(false);
    expect(await s.load('s1', 'alice')).toEqual({ record: record(), principal: 'alice', createdAt: 5, rev: 1 });
    // Another principal (or none) names another key: the session does not exist for it.
    expect(await s.load('s1', 'mallory')).toBeUndefined();
    expect(await s.load('s1', undefined)).toBeUndefined();
    const keys = await redis.command('KEYS', `${prefix}session:*`);
    expect(keys).not.toContain('alice');
    expect(keys).toMatch(/session:[A-Za-z0-9_-]{22}:s1/);
  });

  it('update replaces the record, bumps rev and keeps the TTL; load restarts it', async () => {
    const { store: s, prefix } = await store(60_000);
    await s.create('s2', undefined, { record: record(), createdAt: 1, rev: 1 });
    const key = `${prefix}session:_:s2`;
    await redis.command('PEXPIRE', key, '30000');
    const updated = await s.update('s2', undefined, record([], { logLevel: 'error' }));
    expect(updated).toMatchObject({ rev: 2, record: { logLevel: 'error' } });
    expect(await pttl(key)).toBeLessThanOrEqual(30_000);
    await s.load('s2', undefined);
    expect(await pttl(key)).toBeGreaterThan(30_000);
    expect(await s.update('gone', undefined, record())).toBeUndefined();
  });

  it('subscriptions are indexed by URI; delete removes the session and its index entries', async () => {
    const { store: s, prefix } = await store();
    await s.create('a', 'u', { record: record(), principal: 'u', createdAt: 1, rev: 1 });
    await s.create('b', undefined, { record: record(), createdAt: 1, rev: 1 });
    await s.update('a', 'u', record(['file:///1', 'file:///2']));
    await s.update('b', undefined, record(['file:///1']));
    expect((await s.subscribers('file:///1')).sort()).toEqual(['a', 'b']);
    await s.update('a', 'u', record(['file:///2']));
    expect(await s.subscribers('file:///1')).toEqual(['b']);
    expect(await s.delete('a', 'u')).toMatchObject({ record: { subscriptions: ['file:///2'] } });
    expect(await redis.command('EXISTS', `${prefix}subs:file:///2`)).toBe(':0\r\n');
    expect(await s.delete('a', 'u')).toBeUndefined();
    expect(await s.load('a', 'u')).toBeUndefined();
  });

  it('counts live sessions per owner and in total; delete and expiry stop counting them', async () => {
    const { store: s, prefix } = await store(300);
    expect(await s.count('addr:10.0.0.1')).toEqual({ owner: 0, total: 0 });
    await s.create('q1', undefined, { record: record(), createdAt: 1, rev: 1, owner: 'addr:10.0.0.1' });
    await s.create('q2', 'bob', { record: record(), principal: 'bob', createdAt: 1, rev: 1, owner: 'bob' });
    await s.create('q3', undefined, { record: record(), createdAt: 1, rev: 1, owner: 'addr:10.0.0.1' });
    // An id in use is refused and counts nothing.
    expect(await s.create('q3', undefined, { record: record(), createdAt: 1, rev: 1, owner: 'addr:10.0.0.1' })).toBe(false);
    expect(await s.count('addr:10.0.0.1')).toEqual({ owner: 2, total: 3 });
    expect(await s.count('bob')).toEqual({ owner: 1, total: 3 });
    // Owner keys are digests too: no address or subject in key names.
    expect(await redis.command('KEYS', `${prefix}owner:*`)).not.toMatch(/10\.0\.0\.1|bob/);
    await s.delete('q1', undefined);
    expect(await s.count('addr:10.0.0.1')).toEqual({ owner: 1, total: 2 });
    // Loading keeps q3 alive past the first TTL; q2 (unused) expires and stops counting.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await s.load('q3', undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await s.count('addr:10.0.0.1')).toEqual({ owner: 1, total: 1 });
    expect(await s.count('bob')).toEqual({ owner: 0, total: 1 });
  });

  it('hold names the GET stream instance; an expired session is gone and drops out of the index', async () => {
    const { store: s } = await store(200);
    await s.create('h', undefined, { record: record(['r://x']), createdAt: 1, rev: 1 });
    expect(await s.hold('h', undefined, 'node-b')).toMatchObject({ holder: 'node-b' });
    expect(await s.load('h', undefined)).toMatchObject({ holder: 'node-b' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await s.load('h', undefined)).toBeUndefined();
    expect(await s.subscribers('r://x')).toEqual([]);
    expect(await s.hold('h', undefined, 'node-b')).toBeUndefined();
  });
});
