/**
 * The negative control: the same scenarios on three instances with the
 * default memory stores fail, each of them, so the Redis suite proves what it claims.
 * Scenario 12 (Redis down, outage.test.ts) has no control here: memory stores never go down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './cluster.js';
import * as scenario from './scenarios.js';
import { tasksAcrossInstances } from './scenarios-tasks.js';
import * as resume from './scenarios-resume.js';

const IDLE_MS = 6_000;
const wait = { ms: 1_500 };
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster('memory', undefined, { SESSION_IDLE_MS: String(IDLE_MS) });
}, 60_000);

afterAll(async () => {
  await cluster?.close();
});

describe('three instances with memory stores do not act as one server', () => {
  it('1 fails', () => expect(scenario.initializeOnAListElsewhere(cluster)).rejects.toThrow());
  it('2 fails', () => expect(scenario.setLevelOnBHonouredOnC(cluster)).rejects.toThrow());
  it('3 fails', () => expect(scenario.subscribeOnAStreamOnBUpdateOnC(cluster, wait)).rejects.toThrow());
  it('4 fails', () => expect(scenario.elicitOnBAnswerOnC(cluster, wait)).rejects.toThrow());
  it('5 fails', () => expect(scenario.cancelOnCAbortsOnA(cluster, wait)).rejects.toThrow());
  it('6 fails', () => expect(resume.resumeOnBFollowsA(cluster, wait)).rejects.toThrow());
  it('6 (a follower leaving) fails', () => expect(resume.followerLeaves(cluster, wait, undefined)).rejects.toThrow());
  it('7 fails', () => expect(scenario.deleteOnCEndsEverywhere(cluster, wait)).rejects.toThrow());
  it('8 fails', () => expect(resume.killAKeepsServing(cluster, wait, 0)).rejects.toThrow(), 30_000);
  it('9 fails', () => expect(scenario.listenOnAHearsB(cluster, wait)).rejects.toThrow());
  it('10 fails', () => expect(scenario.mrtrAcrossInstances(cluster)).rejects.toThrow());
  it('11 fails', () => expect(tasksAcrossInstances(cluster, wait)).rejects.toThrow());
});
