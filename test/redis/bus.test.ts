/** RedisNotificationBus: the bus contract on a real redis-server, and what happens when Redis goes away. */
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryNotificationBus, StoreUnavailableError, type BusEvent } from '../../src/index.js';
import { RedisNotificationBus } from '../../src/redis.js';
import { describeNotificationBusContract, waitFor } from '../../src/testing/index.js';
import type { RedisServer } from '../support/redis.js';
import { connectClient, freshPrefix, redisFixture, useRedis } from './support.js';

const server = useRedis();
let redis: RedisServer;
beforeAll(() => {
  redis = server();
});

describeNotificationBusContract('MemoryNotificationBus', () => {
  const bus = new MemoryNotificationBus();
  return { instance: () => bus, close: () => undefined };
}, { describe, it });

for (const resp of [2, 3] as const) {
  describeNotificationBusContract(`RedisNotificationBus (RESP${resp})`, () => redisFixture(server, resp, (client, prefix) => new RedisNotificationBus(client, { prefix }), (store) => store.close()), { describe, it });
}

describe('RedisNotificationBus when Redis goes away', () => {
  it('publish rejects with StoreUnavailableError while Redis is down, nothing crashes, and delivery resumes once it is back', async () => {
    const prefix = freshPrefix();
    const errors: unknown[] = [];
    const a = new RedisNotificationBus(await connectClient(redis), { prefix, onError: (error) => errors.push(error), retryAfterSeconds: 3 });
    const b = new RedisNotificationBus(await connectClient(redis), { prefix });
    const seen: BusEvent[] = [];
    b.subscribe((event) => seen.push(event));
    await b.ready();
    await a.publish({ type: 'list_changed', list: 'tools' });
    await waitFor('the first event', () => seen.length === 1);

    await redis.stop('SIGKILL');
    const failure = await a.publish({ type: 'list_changed', list: 'prompts' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect(failure).toMatchObject({ retryAfterSeconds: 3, message: expect.stringMatching(/^Shared state is unavailable: Redis (is not connected|failed|did not answer)/) });
    await waitFor('the client to report the lost connection', () => errors.length > 0);

    await redis.start();
    // The client and the subscriber connection reconnect by themselves (node-redis), and resubscribe.
    await waitFor('a publish to succeed again', async () => a.publish({ type: 'list_changed', list: 'resources' }).then(() => true, () => false), 10_000);
    await waitFor('delivery to resume', () => seen.some((event) => event.type === 'list_changed' && event.list === 'resources'), 10_000);
    expect(seen[0]).toEqual({ type: 'list_changed', list: 'tools' });
    expect(seen.some((event) => event.type === 'list_changed' && event.list === 'prompts')).toBe(false);
    await a.close();
    await b.close();
  });

  it('a hung Redis fails a publish after commandTimeoutMs instead of hanging', async () => {
    const bus = new RedisNotificationBus(await connectClient(redis), { prefix: freshPrefix(), commandTimeoutMs: 200 });
    redis.freeze();
    try {
      await expect(bus.publish({ type: 'list_changed', list: 'tools' })).rejects.toThrow(new StoreUnavailableError('Shared state is unavailable: Redis did not answer PUBLISH within 200 ms; retry in 5 s'));
    } finally {
      redis.thaw();
    }
    await bus.close();
  });

  it('ignores what it does not understand on its channel', async () => {
    const prefix = freshPrefix();
    const client = await connectClient(redis);
    const bus = new RedisNotificationBus(client, { prefix });
    const seen: BusEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    await bus.ready();
    for (const junk of ['not json', '{"type":"list_changed","list":"nope"}', '{"type":"resource_updated"}', 'null']) await client.sendCommand(['PUBLISH', bus.channel, junk]);
    await bus.publish({ type: 'resource_updated', uri: 'file:///ok' });
    await waitFor('the valid event', () => seen.length > 0);
    expect(seen).toEqual([{ type: 'resource_updated', uri: 'file:///ok' }]);
    await bus.close();
  });
});
