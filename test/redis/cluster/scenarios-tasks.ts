/**
 * Issue 11, scenario 11: 2026-07-28 tasks across instances. A task created on
 * A is in the shared store before its CreateTaskResult; B reads it; its input
 * posted to C reaches the handler on A; tasks/cancel on B aborts that handler;
 * a listen stream on C follows it. Raw HTTP through the balancer, pinned.
 * Instances: 0 = A, 1 = B, 2 = C. The vendored 2026-07-28 schema has no task
 * types: envelopes are validated, task fields are compared exactly.
 */
import { expect } from 'vitest';
import { meta } from '../../fixtures/modern-http.mjs';
import { eventually } from '../../support/eventually.js';
import { expectValidWire } from '../../support/wire-schema.js';
import { MODERN, post, streamPost, textOf, type Answer, type Cluster } from './cluster.js';
import type { Wait } from './scenarios.js';

type Json = Record<string, unknown>;
const A = 0;
const B = 1;
const C = 2;
const TASKS = 'io.modelcontextprotocol/tasks';
const CAPABILITIES = { elicitation: {}, extensions: { [TASKS]: {} } };
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const QUESTION = {
  method: 'elicitation/create',
  params: { message: 'Which colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] } },
};

/** A 2026-07-28 request declaring the tasks extension, with the routing headers (Mcp-Name: the tool, or the task id). */
export function request(id: number | string, method: string, params: Json): { body: Json; headers: Record<string, string> } {
  const name = method === 'tools/call' ? params['name'] : params['taskId'];
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (typeof name === 'string') headers['mcp-name'] = name;
  return { body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(CAPABILITIES) } }, headers };
}

async function send(cluster: Cluster, pin: number, id: number | string, method: string, params: Json): Promise<Answer> {
  const { body, headers } = request(id, method, params);
  const answer = await post(cluster.url, body, { pin, headers });
  if (answer.status !== 200) throw new Error(`${method} on instance ${pin}: HTTP ${answer.status} ${answer.text}`);
  expect(answer.servedBy).toBe(pin);
  expectValidWire(answer.messages[0], MODERN);
  return answer;
}

/** The result of one answer, without the server's `_meta` (serverInfo); fails on a JSON-RPC error. */
function resultOf(answer: Answer): Json {
  const message = answer.messages[0]!;
  if (!('result' in message)) throw new Error(`expected a result, got ${JSON.stringify(message)}`);
  const { _meta: _server, ...result } = message['result'] as Json;
  return result;
}

const getTask = async (cluster: Cluster, pin: number, taskId: string): Promise<Json> => resultOf(await send(cluster, pin, `get-${pin}`, 'tasks/get', { taskId }));

/** What reached the task handlers on one instance (instance.mjs `stats.tasks`). */
async function taskLog(cluster: Cluster, pin: number): Promise<string[]> {
  const answer = await send(cluster, pin, 'stats', 'tools/call', { name: 'stats', arguments: {} });
  return (JSON.parse(textOf(answer.messages[0])) as { tasks: string[] }).tasks;
}

/** 11. Tasks: created on A, read on B, input via C reaches A, cancel on B, status notification on a listen stream on C. */
export async function tasksAcrossInstances(cluster: Cluster, wait: Wait): Promise<void> {
  const before = await taskLog(cluster, A);
  const created = resultOf(await send(cluster, A, 1, 'tools/call', { name: 'task_colour', arguments: {} }));
  const taskId = created['taskId'] as string;
  expect(created).toEqual({ resultType: 'task', taskId: expect.stringMatching(UUID), status: 'working', createdAt: expect.stringMatching(ISO), lastUpdatedAt: created['createdAt'], ttlMs: 60_000, pollIntervalMs: 250 });
  const fields = { taskId, createdAt: created['createdAt'], ttlMs: 60_000, pollIntervalMs: 250 };

  // Read on B: durably created before A answered, then waiting for its question.
  const first = await getTask(cluster, B, taskId);
  expect(['working', 'input_required']).toContain(first['status']);
  let waiting = first;
  await eventually(async () => (waiting = await getTask(cluster, B, taskId))['status'] === 'input_required', { deadlineMs: wait.ms, message: 'the task to wait for input, read on B' });
  expect(waiting).toEqual({ resultType: 'complete', ...fields, status: 'input_required', lastUpdatedAt: expect.stringMatching(ISO), inputRequests: { colour: QUESTION } });

  // Followed on C.
  const { body, headers } = request('follow', 'subscriptions/listen', { notifications: { taskIds: [taskId] } });
  const stream = await streamPost(cluster.url, body, { pin: C, headers });
  try {
    expect(stream.servedBy).toBe(C);
    const ack = await stream.next((m) => m['method'] === 'notifications/subscriptions/acknowledged', wait.ms);
    expectValidWire(ack, MODERN);
    expect(ack).toEqual({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [taskId] }, _meta: { [SUBSCRIPTION]: 'follow' } } });
    const pushed = (status: string) => stream.next((m) => m['method'] === 'notifications/tasks' && (m['params'] as Json)['status'] === status, wait.ms);

    // The answer posted to C reaches the handler on A, which moves the task on: C's stream hears it.
    const updated = await send(cluster, C, 2, 'tasks/update', { taskId, inputResponses: { colour: { action: 'accept', content: { colour: 'teal' } } } });
    expect(resultOf(updated)).toEqual({ resultType: 'complete' });
    const working = await pushed('working');
    expectValidWire(working, MODERN);
    expect(working).toEqual({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...fields, status: 'working', lastUpdatedAt: expect.stringMatching(ISO), _meta: { [SUBSCRIPTION]: 'follow' } } });
    const { _meta: _sub, ...workingTask } = working['params'] as Json;
    expect(await getTask(cluster, B, taskId)).toEqual({ resultType: 'complete', ...workingTask });

    // Cancelled on B: cancelled everywhere at once, the handler on A aborted, C's stream told.
    const cancelled = await send(cluster, B, 3, 'tasks/cancel', { taskId });
    expect(resultOf(cancelled)).toEqual({ resultType: 'complete' });
    const reads = await Promise.all([A, B, C].map((pin) => getTask(cluster, pin, taskId)));
    expect(reads[0]).toEqual({ resultType: 'complete', ...fields, status: 'cancelled', lastUpdatedAt: expect.stringMatching(ISO) });
    expect(reads[1]).toEqual(reads[0]);
    expect(reads[2]).toEqual(reads[0]);
    const told = await pushed('cancelled');
    expectValidWire(told, MODERN);
    expect(told).toEqual({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...fields, status: 'cancelled', lastUpdatedAt: reads[0]!['lastUpdatedAt'], _meta: { [SUBSCRIPTION]: 'follow' } } });
    let log: string[] = [];
    await eventually(async () => (log = (await taskLog(cluster, A)).slice(before.length)).length === 2, { deadlineMs: wait.ms, message: 'the handler on A to be aborted' });
    expect(log).toEqual(['answer teal', 'aborted: The task was cancelled by the client']);
    // Nothing else was pushed: one notification per change (A's input_required may still have been on its way when C started following).
    const statuses = stream.messages.map((m) => (m['params'] as Json)['status'] ?? m['method']).filter((status, index) => !(index === 1 && status === 'input_required'));
    expect(statuses).toEqual(['notifications/subscriptions/acknowledged', 'working', 'cancelled']);
  } finally {
    stream.close();
  }
}

/**
 * 11b. A task whose instance dies fails once its lease runs out, read anywhere; a task on a live
 * instance outlives many leases because its instance renews them. Needs a cluster started with
 * TASK_LEASE_MS = `leaseMs`; kills A.
 */
export async function taskFailsWhenItsInstanceDies(cluster: Cluster, leaseMs: number): Promise<void> {
  const orphan = resultOf(await send(cluster, A, 1, 'tools/call', { name: 'task_colour', arguments: {} }));
  const kept = resultOf(await send(cluster, B, 2, 'tools/call', { name: 'task_colour', arguments: {} }));
  const keptId = kept['taskId'] as string;
  const orphanId = orphan['taskId'] as string;
  // Several leases long: B's task lives on only because B renews it.
  const renewedUntil = Date.now() + 3 * leaseMs;
  await eventually(() => Date.now() > renewedUntil, { deadlineMs: 4 * leaseMs, everyMs: 100, message: 'three leases to pass' });
  expect((await getTask(cluster, C, keptId))['status']).toBe('input_required');
  expect((await getTask(cluster, C, orphanId))['status']).toBe('input_required');

  const { body, headers } = request('orphan', 'subscriptions/listen', { notifications: { taskIds: [orphanId] } });
  const stream = await streamPost(cluster.url, body, { pin: C, headers });
  await stream.next((m) => m['method'] === 'notifications/subscriptions/acknowledged', 5_000);
  await cluster.kill(A);
  // Recorded by the first store call after the lease ran out (B renewing its own task, or a read), and published.
  const told = await stream.next((m) => m['method'] === 'notifications/tasks', 4 * leaseMs).finally(() => stream.close());
  const failed = await getTask(cluster, C, orphanId);
  const why = `The task failed: the server instance running it stopped (its lease of ${leaseMs} ms ran out)`;
  expect(failed).toEqual({
    resultType: 'complete',
    taskId: orphanId,
    status: 'failed',
    statusMessage: why,
    createdAt: orphan['createdAt'],
    lastUpdatedAt: expect.stringMatching(ISO),
    ttlMs: 60_000,
    pollIntervalMs: 250,
    error: { code: -32603, message: why },
  });
  expect(await getTask(cluster, B, orphanId)).toEqual(failed);
  const { resultType: _complete, ...task } = failed;
  expect(told).toEqual({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task, _meta: { [SUBSCRIPTION]: 'orphan' } } });
  expectValidWire(told, MODERN);
  // Final: a late answer changes nothing.
  expect(resultOf(await send(cluster, B, 3, 'tasks/update', { taskId: orphanId, inputResponses: { colour: { action: 'accept', content: { colour: 'red' } } } }))).toEqual({ resultType: 'complete' });
  expect(await getTask(cluster, C, orphanId)).toEqual(failed);

  // B's task, as old, still runs: its answer posted to C reaches B.
  expect((await getTask(cluster, C, keptId))['status']).toBe('input_required');
  await send(cluster, C, 4, 'tasks/update', { taskId: keptId, inputResponses: { colour: { action: 'accept', content: { colour: 'red' } } } });
  await eventually(async () => (await getTask(cluster, C, keptId))['status'] === 'working', { deadlineMs: 5_000, message: "B's task to take its answer" });
  await send(cluster, C, 5, 'tasks/cancel', { taskId: keptId });
  expect((await getTask(cluster, B, keptId))['status']).toBe('cancelled');
}
