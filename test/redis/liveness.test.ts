/**
 * RedisClusterChannel's liveness: an instance listening on the channel renews
 * a key with a TTL; the others learn it stopped (closed, or silent past
 * instanceTtlMs after kill -9) and tell one run of an instance from the next.
 */
import { describe, expect, it } from 'vitest';
import { RedisClusterChannel } from '../../src/redis.js';
import { eventually } from '../support/eventually.js';
import { connectClient, freshPrefix, useRedis } from './support.js';

const server = useRedis();

describe('RedisClusterChannel liveness', () => {
  it('an instance is alive while it listens, and not once it closed its channel', async () => {
    const prefix = freshPrefix();
    const a = new RedisClusterChannel(await connectClient(server()), { prefix, instanceId: 'a' });
    const b = new RedisClusterChannel(await connectClient(server()), { prefix, instanceId: 'b' });
    expect(await b.alive('a')).toBe(false);
    const stop = await a.listen(() => undefined);
    await eventually(() => b.alive('a'), { message: 'a alive' });
    expect(await b.alive('a', a.incarnation)).toBe(true);
    // Another run of "a" (a restart) is not the one a follower waits on.
    expect(await b.alive('a', 'earlier-run')).toBe(false);
    stop();
    await a.close();
    expect(await b.alive('a')).toBe(false);
    await b.close();
  });

  it('an instance that stops renewing (its process killed) is dead once instanceTtlMs passed', async () => {
    const prefix = freshPrefix();
    const crashing = await connectClient(server());
    const a = new RedisClusterChannel(crashing, { prefix, instanceId: 'a', instanceTtlMs: 600 });
    const b = new RedisClusterChannel(await connectClient(server()), { prefix, instanceId: 'b' });
    await a.listen(() => undefined);
    await eventually(() => b.alive('a'), { message: 'a alive' });
    // As after kill -9: the heartbeat's connection is gone and nothing deletes the key.
    await crashing.close();
    await eventually(async () => !(await b.alive('a')), { deadlineMs: 5_000, message: 'a dead after its TTL' });
    await a.close();
    await b.close();
  });

  it('refuses a TTL too short to renew', async () => {
    const client = await connectClient(server());
    expect(() => new RedisClusterChannel(client, { instanceTtlMs: 100 })).toThrow('instanceTtlMs must be an integer of at least 300 (got 100)');
  });
});
