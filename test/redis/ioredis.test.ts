/** fromIoredis: the same store contracts as node-redis, on a real redis-server, through an ioredis client; and an outage. */
import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromIoredis, RedisEventStore, RedisNotificationBus, RedisSessionStore, RedisTaskStore, type IoredisLike, type RedisClientLike } from '../../src/redis.js';
import { describeEventStoreContract, describeNotificationBusContract, describeSessionStoreContract, describeTaskStoreContract } from '../../src/testing/index.js';
import type { RedisServer } from '../support/redis.js';
import { expectBusSurvivesOutage, freshPrefix, useRedis } from './support.js';

const server = useRedis();
let redis: RedisServer;
beforeAll(() => {
  redis = server();
});

const open = new Set<Redis>();
afterEach(async () => {
  const clients = [...open];
  open.clear();
  await Promise.all(clients.map(async (client) => client.quit().catch(() => client.disconnect())));
});

/** A connected ioredis client (RESP2 unless `protocol: 3`) that reconnects quickly, as mcpkit sees it. */
async function ioredis(protocol: 2 | 3 = 2): Promise<RedisClientLike> {
  const client = new Redis(redis.url, { protocol, lazyConnect: true, retryStrategy: () => 50, connectTimeout: 1_000, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  await client.connect();
  open.add(client);
  // The real client fits the structural type as it is.
  const fits: IoredisLike = client;
  return fromIoredis(fits);
}

function fixture<S>(protocol: 2 | 3, make: (client: RedisClientLike, prefix: string) => S, close: (store: S) => unknown) {
  const prefix = freshPrefix();
  const stores: S[] = [];
  return {
    async instance() {
      const store = make(await ioredis(protocol), prefix);
      stores.push(store);
      return store;
    },
    async close() {
      await Promise.all(stores.map(async (store) => close(store)));
    },
  };
}

for (const protocol of [2, 3] as const) {
  const name = (store: string): string => `${store} on ioredis (RESP${protocol})`;
  describeEventStoreContract(name('RedisEventStore'), (limits) => fixture(protocol, (client, prefix) => new RedisEventStore(client, { ...limits, prefix }), (store) => store.close()), { describe, it });
  describeTaskStoreContract(name('RedisTaskStore'), (options) => fixture(protocol, (client, prefix) => new RedisTaskStore(client, { ...options, prefix }), (store) => store.close()), { describe, it });
  describeNotificationBusContract(name('RedisNotificationBus'), () => fixture(protocol, (client, prefix) => new RedisNotificationBus(client, { prefix }), (store) => store.close()), { describe, it });
  describeSessionStoreContract(name('RedisSessionStore'), (options) => fixture(protocol, (client, prefix) => new RedisSessionStore(client, { ...options, prefix }), () => undefined), { describe, it });
}

describe('fromIoredis when Redis goes away', () => {
  it('fails with StoreUnavailableError while Redis is down, then reconnects and resubscribes by itself', async () => {
    await expectBusSurvivesOutage(redis, () => ioredis());
  });

  it('maps a reply error to an ordinary Error, not to unavailability', async () => {
    const client = await ioredis();
    const failure = await client.sendCommand(['NOSUCHCOMMAND']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^ERR unknown command/);
  });
});
