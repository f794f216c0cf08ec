/** node-redis clients on the harness's private server, closed after each test. */
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { StoreUnavailableError, type BusEvent } from '../../src/index.js';
import { waitFor } from '../../src/testing/index.js';
import { RedisNotificationBus, type RedisClientLike } from '../../src/redis.js';
import { startRedis, type RedisServer } from '../support/redis.js';

/** A private redis-server for this test file (started before its tests, stopped after); clients closed after each test. */
export function useRedis(): () => RedisServer {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(closeClients);
  return () => server!;
}

/** A contract-suite fixture on Redis: one fresh prefix, and each `instance()` on a client of its own (as another process). */
export function redisFixture<S>(server: () => RedisServer, resp: 2 | 3, make: (client: RedisClientLike, prefix: string) => S, close: (store: S) => unknown): { instance(): Promise<S>; close(): Promise<void> } {
  const prefix = freshPrefix();
  const stores: S[] = [];
  return {
    async instance() {
      const store = make(await connectClient(server(), resp), prefix);
      stores.push(store);
      return store;
    },
    async close() {
      await Promise.all(stores.map(async (store) => close(store)));
    },
  };
}

const open = new Set<{ readonly isOpen: boolean; close(): Promise<void> }>();
let prefixes = 0;

/** A connected node-redis client (RESP2 unless `resp: 3`); reconnects quickly after an outage. */
export async function connectClient(server: RedisServer, resp: 2 | 3 = 2) {
  const client = createClient({ url: server.url, RESP: resp, socket: { reconnectStrategy: () => 50, connectTimeout: 1_000 } });
  // Errors are the stores' business (they attach their own listener); keep the test output quiet.
  client.on('error', () => undefined);
  await client.connect();
  open.add(client);
  // The official client fits mcpkit's structural type as it is.
  const fits: RedisClientLike = client;
  void fits;
  return client;
}

export async function closeClients(): Promise<void> {
  const clients = [...open];
  open.clear();
  await Promise.all(clients.filter((client) => client.isOpen).map((client) => client.close().catch(() => undefined)));
}

/** A prefix of its own per test, so tests on one server never see each other's keys. */
export function freshPrefix(): string {
  return `t${process.pid}-${++prefixes}:`;
}

/**
 * A bus on two clients across an outage: publishing fails with
 * StoreUnavailableError while Redis is down, nothing published meanwhile is
 * delivered, and both connections come back by themselves. With `errors`,
 * the publishing bus reports its connection errors there (its `onError`),
 * and at least one must arrive while Redis is down.
 */
export async function expectBusSurvivesOutage(server: RedisServer, connect: () => Promise<RedisClientLike>, errors?: unknown[]): Promise<void> {
  const prefix = freshPrefix();
  const a = new RedisNotificationBus(await connect(), { prefix, retryAfterSeconds: 3, ...(errors === undefined ? {} : { onError: (error: unknown) => errors.push(error) }) });
  const b = new RedisNotificationBus(await connect(), { prefix });
  const seen: BusEvent[] = [];
  b.subscribe((event) => seen.push(event));
  await b.ready();
  await a.publish({ type: 'list_changed', list: 'tools' });
  await waitFor('the first event', () => seen.length === 1);

  await server.stop('SIGKILL');
  const failure = await a.publish({ type: 'list_changed', list: 'prompts' }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(StoreUnavailableError);
  expect(failure).toMatchObject({ retryAfterSeconds: 3, message: expect.stringMatching(/^Shared state is unavailable: Redis (is not connected|failed|did not answer)/) });
  if (errors !== undefined) await waitFor('the client to report the lost connection', () => errors.length > 0);

  await server.start();
  // Published until heard: the publisher may reconnect before the subscriber has resubscribed, and pub/sub keeps nothing.
  const delivered = (): boolean => seen.some((event) => event.type === 'list_changed' && event.list === 'resources');
  await waitFor('delivery to resume', async () => delivered() || (await a.publish({ type: 'list_changed', list: 'resources' }).then(() => false, () => false)) || delivered(), 15_000);
  expect(seen[0]).toEqual({ type: 'list_changed', list: 'tools' });
  expect(seen.some((event) => event.type === 'list_changed' && event.list === 'prompts')).toBe(false);
  await a.close();
  await b.close();
}
