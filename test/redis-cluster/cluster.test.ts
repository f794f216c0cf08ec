/**
 * Issue 11's proof: three mcpkit processes on one private redis-server behind
 * a round-robin balancer act as one server. Every scenario goes through the
 * balancer, pinned to the instance it names (A = 0, B = 1, C = 2).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startRedis, type RedisServer } from '../support/redis.js';
import { startCluster, type Cluster } from './cluster.js';
import * as scenario from './scenarios.js';

const wait = { ms: 5_000 };
let redis: RedisServer;
let cluster: Cluster;

beforeAll(async () => {
  redis = await startRedis();
  cluster = await startCluster('redis', redis.url);
}, 60_000);

afterAll(async () => {
  await cluster?.close();
  await redis?.close();
});

describe('three instances on Redis act as one server', () => {
  it('9. a 2026-07-28 listen stream on A hears list changes and updates published on B', () => scenario.listenOnAHearsB(cluster, wait));
  it('10. MRTR round 1 on A, retry on B; a tampered state is refused on C', () => scenario.mrtrAcrossInstances(cluster));
});
