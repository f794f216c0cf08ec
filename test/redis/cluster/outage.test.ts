/**
 * Scenario 12 of issue 11 on a cluster of its own: it freezes and stops its
 * private redis-server, so it never shares one with the other scenarios.
 * No negative control: memory stores never go down, so there is no outage for
 * them to fail at (control.test.ts has nothing meaningful to run here).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startRedis, type RedisServer } from '../../support/redis.js';
import { startCluster, type Cluster } from './cluster.js';
import * as scenario from './scenarios-ops.js';

let redis: RedisServer;
let cluster: Cluster;
let oldSession: string;

beforeAll(async () => {
  redis = await startRedis();
  cluster = await startCluster('redis', redis.url);
}, 60_000);

afterAll(async () => {
  await cluster?.close();
  await redis?.close();
});

describe('12. Redis goes away mid-run', () => {
  it('frozen: stateful requests get 503 after the command timeout, not a hang; 2026-07-28 is served; the session survives', () => scenario.frozenRedis(cluster, redis), 30_000);
  it('stopped: 503 with Retry-After for session requests, initialize, GET and DELETE; 2026-07-28 requests still served; nothing crashes', async () => {
    oldSession = await scenario.stoppedRedis(cluster, redis);
  }, 60_000);
  it('back: every instance reconnects by itself; a new session works on all three and notifications cross instances again', () => scenario.redisReturns(cluster, redis, oldSession), 60_000);
});
