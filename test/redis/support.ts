/** node-redis clients on the harness's private server, closed after each test. */
import { createClient } from 'redis';
import type { RedisClientLike } from '../../src/redis.js';
import type { RedisServer } from '../support/redis.js';

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
