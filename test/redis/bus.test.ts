/** RedisNotificationBus: the bus contract on a real redis-server, and what happens when Redis goes away. */
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryNotificationBus, StoreUnavailableError, type BusEvent } from '../../src/index.js';
import { RedisNotificationBus } from '../../src/redis.js';
import { describeNotificationBusContract, waitFor } from '../../src/testing/index.js';
import type { RedisServer } from '../support/redis.js';
import { connectClient, expectBusSurvivesOutage, freshPrefix, redisFixture, useRedis } from './support.js';

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
    await expectBusSurvivesOutage(redis, () => connectClient(redis), []);
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
