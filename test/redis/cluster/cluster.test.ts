/**
 * Issue 11's proof: three mcpkit processes on one private redis-server behind
 * a round-robin balancer act as one server. Every scenario goes through the
 * balancer, pinned to the instance it names (A = 0, B = 1, C = 2).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startRedis, type RedisServer } from '../../support/redis.js';
import { startCluster, type Cluster } from './cluster.js';
import * as scenario from './scenarios.js';
import { tasksAcrossInstances } from './scenarios-tasks.js';
import * as resume from './scenarios-resume.js';

const IDLE_MS = 6_000;
const INSTANCE_TTL_MS = 3_000;
const wait = { ms: 5_000 };
let redis: RedisServer;
let cluster: Cluster;

beforeAll(async () => {
  redis = await startRedis();
  cluster = await startCluster('redis', redis.url, { SESSION_IDLE_MS: String(IDLE_MS), INSTANCE_TTL_MS: String(INSTANCE_TTL_MS) });
}, 60_000);

afterAll(async () => {
  await cluster?.close();
  await redis?.close();
});

describe('three instances on Redis act as one server', () => {
  it('1. initialize on A, tools/list on B and C; the SDK client is served by all three', () => scenario.initializeOnAListElsewhere(cluster));
  it('2. logging/setLevel on B is honoured by a tool on C', () => scenario.setLevelOnBHonouredOnC(cluster));
  it('3. subscribe on A, GET stream on B, update fired on C: it arrives on B', () => scenario.subscribeOnAStreamOnBUpdateOnC(cluster, wait));
  it('4. ctx.elicit on B answered on C completes (raw, then the SDK client round robin)', () => scenario.elicitOnBAnswerOnC(cluster, wait));
  it('5. notifications/cancelled on C aborts the handler on A, which sends no response', () => scenario.cancelOnCAbortsOnA(cluster, wait));
  it('6. a stream cut on A, resumed on B with Last-Event-ID: replayed, then followed to the result (raw, then the SDK client)', () => resume.resumeOnBFollowsA(cluster, wait), 30_000);
  it('6. a follower whose client goes away stops following (B unsubscribes from the stream)', () => resume.followerLeaves(cluster, wait, redis.url));
  it('7. DELETE on C: A answers 404 and the GET stream on B closes', () => scenario.deleteOnCEndsEverywhere(cluster, wait));
  it('7. after the idle TTL every instance answers 404', () => scenario.idleSessionExpiresEverywhere(cluster, IDLE_MS), 20_000);
  it('8. kill -9 of A: B and C serve its session, received events replay on B, its pending requests fail with a clear error (A restarted after)', () => resume.killAKeepsServing(cluster, wait, INSTANCE_TTL_MS), 60_000);
  it('9. a 2026-07-28 listen stream on A hears list changes and updates published on B', () => scenario.listenOnAHearsB(cluster, wait));
  it('10. MRTR round 1 on A, retry on B; a tampered state is refused on C', () => scenario.mrtrAcrossInstances(cluster));
  it('11. tasks: created on A, read on B, input via C reaches A, cancel on B, status notifications on a listen stream on C', () => tasksAcrossInstances(cluster, wait));
});
