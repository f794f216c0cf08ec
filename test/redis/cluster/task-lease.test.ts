/**
 * Issue 11, scenario 11 (lease): its own cluster with a short task lease, because it kills an instance.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startRedis, type RedisServer } from '../../support/redis.js';
import { startCluster, type Cluster } from './cluster.js';
import { taskFailsWhenItsInstanceDies } from './scenarios-tasks.js';

const LEASE_MS = 1_500;
let redis: RedisServer;
let cluster: Cluster;

beforeAll(async () => {
  redis = await startRedis();
  cluster = await startCluster('redis', redis.url, { TASK_LEASE_MS: String(LEASE_MS) });
}, 60_000);

afterAll(async () => {
  await cluster?.close();
  await redis?.close();
});

describe('tasks on Redis when an instance dies', () => {
  it('11. kill -9 of A: its task fails once the lease runs out, read on B and C; a task on B, renewed, runs on', () => taskFailsWhenItsInstanceDies(cluster, LEASE_MS), 30_000);
});
