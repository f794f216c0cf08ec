/**
 * Scenario 12 of issue 11: Redis goes away mid-run. Requests that need shared
 * state (a legacy session, initialize, its GET stream, DELETE) get 503 with
 * Retry-After and a message naming the cause; 2026-07-28 requests that need
 * none are still served; no instance crashes; once Redis answers again every
 * instance reconnects by itself and a new session works everywhere.
 * Instances: 0 = A, 1 = B, 2 = C (pinned with `x-pin`).
 */
import { expect } from 'vitest';
import { meta, routingHeaders } from '../../fixtures/modern-http.mjs';
import { eventually } from '../../support/eventually.js';
import type { RedisServer } from '../../support/redis.js';
import { expectValidWire } from '../../support/wire-schema.js';
import { call, initialize, LEGACY, MODERN, openGet, post, streamPost, textOf, type Answer, type Cluster } from './cluster.js';
import { request as taskRequest } from './scenarios-tasks.js';

type Json = Record<string, unknown>;
const A = 0;
const B = 1;
const C = 2;
const ALL = [A, B, C];

/** What the instances of the cluster were started with (test/redis/cluster/instance.mjs). */
export const RETRY_AFTER_SECONDS = 2;

function modern(id: number | string, method: string, params: Json = {}): { body: Json; headers: Record<string, string> } {
  return { body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta() } }, headers: routingHeaders(method, params) };
}

/** A 503 a client can act on: Retry-After, a JSON-RPC error naming Redis and when to retry. */
function expectStoreUnavailable(answer: { status: number; headers: Headers; text: string }, cause: RegExp): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
  expect(answer.headers.get('content-type')).toBe('application/json');
  const body = JSON.parse(answer.text) as Json;
  expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32603, data: { retryAfterSeconds: RETRY_AFTER_SECONDS } } });
  const message = (body['error'] as { message: string }).message;
  expect(message).toMatch(/^Service unavailable: Shared state is unavailable: Redis /);
  expect(message).toMatch(cause);
  expect(message).toMatch(new RegExp(`retry in ${RETRY_AFTER_SECONDS} s$`));
}

async function deleteSession(cluster: Cluster, session: string, pin: number): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(cluster.url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, 'x-pin': String(pin) } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** 2026-07-28 requests that need no shared state, on every instance. */
async function modernServedEverywhere(cluster: Cluster): Promise<void> {
  for (const pin of ALL) {
    const list = modern(`list-${pin}`, 'tools/list');
    const listed = await post(cluster.url, list.body, { pin, headers: list.headers });
    expect(listed.status, listed.text).toBe(200);
    expectValidWire(listed.messages[0], MODERN);
    expect(((listed.messages[0]!['result'] as Json)['tools'] as { name: string }[]).map((t) => t.name)).toContain('whoami');
    const who = modern(`who-${pin}`, 'tools/call', { name: 'whoami', arguments: {} });
    const called = await post(cluster.url, who.body, { pin, headers: who.headers });
    expect(called.status, called.text).toBe(200);
    expectValidWire(called.messages[0], MODERN);
    expect(textOf(called.messages[0])).toBe(['a', 'b', 'c'][pin]);
  }
}

/** The requests of a legacy session, each on every instance: all 503. */
async function statefulRefused(cluster: Cluster, session: string, cause: RegExp): Promise<void> {
  for (const pin of ALL) {
    expectStoreUnavailable(await post(cluster.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { session, version: LEGACY, pin }), cause);
    expectStoreUnavailable(await post(cluster.url, call(2, 'whoami'), { session, version: LEGACY, pin }), cause);
    const opened = await post(cluster.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'outage', version: '1.0.0' } } }, { pin });
    expectStoreUnavailable(opened, cause);
    expect(opened.headers.get('mcp-session-id')).toBeNull();
    const get = await fetch(cluster.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, 'x-pin': String(pin) } });
    expectStoreUnavailable({ status: get.status, headers: get.headers, text: await get.text() }, cause);
    expectStoreUnavailable(await deleteSession(cluster, session, pin), cause);
  }
}

/** A 2026-07-28 request declaring the tasks extension, pinned to `pin`. */
function postTask(cluster: Cluster, pin: number, id: string, method: string, params: Json): Promise<Answer> {
  const { body, headers } = taskRequest(id, method, params);
  return post(cluster.url, body, { pin, headers });
}

/** Every instance is still the same process (none crashed) and answers. */
function expectNoCrash(cluster: Cluster): void {
  for (const pin of ALL) {
    expect(cluster.alive(pin), `instance ${pin} exited:\n${cluster.output(pin)}`).toBe(true);
    expect(cluster.output(pin)).not.toMatch(/unhandled|uncaught/i);
  }
}

/** 12a. Redis hangs (SIGSTOP): stateful requests fail after commandTimeoutMs with 503, never a hang; 2026-07-28 is served; all resumes on SIGCONT. */
export async function frozenRedis(cluster: Cluster, redis: RedisServer): Promise<void> {
  const { session } = await initialize(cluster.url, A);
  redis.freeze();
  try {
    for (const pin of ALL) {
      expectStoreUnavailable(await post(cluster.url, call(1, 'whoami'), { session, version: LEGACY, pin }), /did not answer EVALSHA within 1000 ms/);
    }
    await modernServedEverywhere(cluster);
  } finally {
    redis.thaw();
  }
  // Nothing was lost: the session lives on.
  for (const pin of ALL) {
    const after = await post(cluster.url, call(3, 'whoami'), { session, version: LEGACY, pin });
    expect(after.status, after.text).toBe(200);
    expect(textOf(after.messages.at(-1))).toBe(['a', 'b', 'c'][pin]);
  }
  expectNoCrash(cluster);
}

/**
 * 12b. Redis stopped: every request of a legacy session, initialize, GET and
 * DELETE get 503 on every instance; 2026-07-28 tools/list and tools/call are
 * served; a tool that publishes a notification still answers. Answers the
 * session opened before, for the recovery step.
 */
export async function stoppedRedis(cluster: Cluster, redis: RedisServer): Promise<string> {
  const { session } = await initialize(cluster.url, B);
  const stream = await openGet(cluster.url, session, { pin: C });
  expect(stream.status).toBe(200);
  const created = await postTask(cluster, A, 'create', 'tools/call', { name: 'task_colour', arguments: {} });
  expect(created.status, created.text).toBe(200);
  const taskId = (created.messages[0]!['result'] as Json)['taskId'] as string;
  await redis.stop();
  try {
    // Each instance notices the lost connection by itself (node-redis reconnects in the background).
    for (const pin of ALL) {
      await eventually(async () => (await post(cluster.url, call(1, 'whoami'), { session, version: LEGACY, pin })).status === 503, { message: `instance ${pin} answering 503`, deadlineMs: 15_000, everyMs: 50 });
    }
    await statefulRefused(cluster, session, /is not connected/);
    // Tasks live in Redis: reading one, or creating one, answers 503 too, with the request's id.
    for (const pin of ALL) {
      const read = await postTask(cluster, pin, `get-${pin}`, 'tasks/get', { taskId });
      expectStoreUnavailable(read, /is not connected/);
      expect(read.messages[0]!['id']).toBe(`get-${pin}`);
      // A new task also subscribes to its channel, which may be what fails first.
      expectStoreUnavailable(await postTask(cluster, pin, `new-${pin}`, 'tools/call', { name: 'task_colour', arguments: {} }), /is not connected|subscriber connection is down/);
    }
    await modernServedEverywhere(cluster);
    // A 2026-07-28 tool that awaits a publish gets the store's error as its own (isError), and the instance serves on.
    const trigger = modern('trigger', 'tools/call', { name: 'trigger_update', arguments: { uri: 'test://watched' } });
    const triggered = await post(cluster.url, trigger.body, { pin: A, headers: trigger.headers });
    expect(triggered.status, triggered.text).toBe(200);
    expect(triggered.messages[0]!['result']).toMatchObject({ isError: true, content: [{ type: 'text', text: `Shared state is unavailable: Redis is not connected; retry in ${RETRY_AFTER_SECONDS} s` }] });
    expectNoCrash(cluster);
  } finally {
    stream.close();
  }
  return session;
}

/**
 * 12c. Redis back (empty: no persistence): every instance reconnects by itself;
 * the old session is gone (404 telling the client to initialize again); a new
 * session is served by all three; notifications cross instances again.
 */
export async function redisReturns(cluster: Cluster, redis: RedisServer, oldSession: string): Promise<void> {
  await redis.start();
  let opened: Answer | undefined;
  await eventually(
    async () => {
      opened = await post(cluster.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'after', version: '1.0.0' } } }, { pin: A });
      return opened.status === 200;
    },
    { message: 'initialize on A to succeed again', deadlineMs: 15_000, everyMs: 100 },
  );
  for (const pin of ALL) {
    await eventually(async () => (await post(cluster.url, call(1, 'whoami'), { session: oldSession, version: LEGACY, pin })).status !== 503, { message: `instance ${pin} reconnected`, deadlineMs: 15_000, everyMs: 100 });
    const gone = await post(cluster.url, call(1, 'whoami'), { session: oldSession, version: LEGACY, pin });
    expect(gone.status).toBe(404);
    expect(gone.messages[0]).toMatchObject({ error: { message: expect.stringContaining('start a new session with initialize') } });
  }

  const { session } = await initialize(cluster.url, A);
  ok(await post(cluster.url, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'test://watched' } }, { session, version: LEGACY, pin: B }));
  for (const pin of ALL) {
    const served = await post(cluster.url, call(2, 'whoami'), { session, version: LEGACY, pin });
    ok(served);
    expect(textOf(served.messages.at(-1))).toBe(['a', 'b', 'c'][pin]);
  }
  // The cluster channel and the bus resubscribed: an update fired on A reaches the GET stream on C.
  const stream = await openGet(cluster.url, session, { pin: C });
  try {
    expect(stream.status).toBe(200);
    ok(await post(cluster.url, call(3, 'trigger_update', { uri: 'test://watched' }), { session, version: LEGACY, pin: A }));
    expect(await stream.next((m) => m['method'] === 'notifications/resources/updated', 10_000)).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched' } });
  } finally {
    stream.close();
  }
  // A new task works across instances again: created on B, read on C.
  const created = await postTask(cluster, B, 'after', 'tools/call', { name: 'task_colour', arguments: {} });
  ok(created);
  const taskId = (created.messages[0]!['result'] as Json)['taskId'] as string;
  const read = await postTask(cluster, C, 'read', 'tasks/get', { taskId });
  ok(read);
  expect((read.messages[0]!['result'] as Json)['taskId']).toBe(taskId);
  // And a 2026-07-28 listen stream on B hears a list change published on C.
  const listen = modern('listen', 'subscriptions/listen', { notifications: { toolsListChanged: true } });
  const listening = await streamPost(cluster.url, listen.body, { pin: B, headers: listen.headers });
  try {
    await listening.next((m) => m['method'] === 'notifications/subscriptions/acknowledged');
    const add = modern(4, 'tools/call', { name: 'add_tool', arguments: { name: `after_outage_${Date.now()}` } });
    ok(await post(cluster.url, add.body, { pin: C, headers: add.headers }));
    await listening.next((m) => m['method'] === 'notifications/tools/list_changed', 10_000);
  } finally {
    listening.close();
  }
  expectNoCrash(cluster);
}

function ok(answer: { status: number; text: string }, status = 200): void {
  if (answer.status !== status) throw new Error(`expected HTTP ${status}, got ${answer.status}: ${answer.text}`);
}
