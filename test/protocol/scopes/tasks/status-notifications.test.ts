/**
 * notifications/tasks (SEP-2663) on a subscriptions/listen stream over HTTP: a client that
 * declared the tasks extension names the tasks it follows in `notifications.taskIds`; each
 * status change arrives with the whole task as tasks/get shows it then. The vendored
 * 2026-07-28 schema has no task types, so these messages are checked field by field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../../../src/index.js';
import { listen, type McpHttpListener } from '../../../../src/http.js';
import { MemoryTaskStore } from '../../../../src/stores/tasks.js';
import { expectValidWire } from '../../../support/wire-schema.js';
import { MODERN, META_SUBSCRIPTION_ID, modernRequest, openStream } from '../../../fixtures/modern-http.mjs';

type Json = Record<string, unknown>;
const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { elicitation: {}, extensions: { [TASKS]: {} } };
const none = { type: 'object', properties: {} } as const;

let release = (): void => undefined;
let listener: McpHttpListener;
let url: string;

beforeAll(async () => {
  const server = new McpServer({ name: 'task-notes', version: '1.0.0', tasks: { store: new MemoryTaskStore({ ttlMs: 60_000, pollIntervalMs: 100 }) } });
  server.tool('confirm', { input: none, task: 'optional' }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }, { key: 'go' });
    await new Promise<void>((resolve) => (release = resolve));
    return answer.content?.['ok'] === true ? 'done' : 'stopped';
  });
  listener = await listen(server, { port: 0, keepAliveMs: 0 });
  url = listener.url;
});
afterAll(async () => {
  release();
  await listener.close({ graceMs: 0 });
});

async function createTask(): Promise<string> {
  const answer = await modernRequest(url, 1, 'tools/call', { name: 'confirm', arguments: {} }, { capabilities: WITH_TASKS });
  const result = (answer.messages[0] as { result: Json }).result;
  expect(result['resultType']).toBe('task');
  return result['taskId'] as string;
}

const taskRequest = (id: number, method: string, params: Json) =>
  modernRequest(url, id, method, params, { capabilities: WITH_TASKS, headers: { 'mcp-name': params['taskId'] as string } });

describe('notifications/tasks', () => {
  it('follows the named tasks: each change carries the task as tasks/get shows it, tagged with the subscription id', async () => {
    const taskId = await createTask();
    const stream = await openStream(url, 'follow', 'subscriptions/listen', { notifications: { taskIds: [taskId, 'no-such-task'] } }, { capabilities: WITH_TASKS });
    const ack = (await stream.next()) as Json;
    expectValidWire(ack, MODERN);
    // Only the tasks the caller owns and that exist are followed.
    expect(ack).toEqual({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [taskId] }, _meta: { [META_SUBSCRIPTION_ID]: 'follow' } } });

    // The task may already wait for its answer; the update moves it on and every change is pushed.
    const seen: Json[] = [];
    const nextTask = async (): Promise<Json> => {
      const message = (await stream.next()) as { jsonrpc: string; method: string; params: Json };
      expect(message.jsonrpc).toBe('2.0');
      expect(message.method).toBe('notifications/tasks');
      expect(message.params['_meta']).toEqual({ [META_SUBSCRIPTION_ID]: 'follow' });
      seen.push(message.params);
      return message.params;
    };
    const get = async (): Promise<Json> => ((await taskRequest(9, 'tasks/get', { taskId })).messages[0] as { result: Json }).result;
    let state = await get();
    if (state['status'] !== 'input_required') state = await nextTask();
    expect(state['status']).toBe('input_required');

    await taskRequest(3, 'tasks/update', { taskId, inputResponses: { go: { action: 'accept', content: { ok: true } } } });
    const working = await nextTask();
    expect(working).toMatchObject({ taskId, status: 'working' });
    expect(working).not.toHaveProperty('inputRequests');
    release();
    const done = await nextTask();
    const { resultType: _ignored, _meta: _serverInfo, ...polled } = await get();
    const { _meta: _m, ...pushed } = done;
    // The pushed task equals what tasks/get answers at that moment (SEP-2663: "identical").
    expect(pushed).toEqual(polled);
    expect(done).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });
    expect(typeof done['createdAt']).toBe('string');
    expect(done['ttlMs']).toBe(60_000);
    stream.close();
  });

  it('asking for task notifications without declaring the tasks extension is -32021 (HTTP 400)', async () => {
    const taskId = await createTask();
    const answer = await modernRequest(url, 5, 'subscriptions/listen', { notifications: { taskIds: [taskId] } }, { capabilities: {} });
    expect(answer.status).toBe(400);
    expect(answer.messages[0]).toMatchObject({ id: 5, error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } } });
    const bad = await modernRequest(url, 6, 'subscriptions/listen', { notifications: { taskIds: 'all' } }, { capabilities: WITH_TASKS });
    expect(bad.messages[0]).toMatchObject({ id: 6, error: { code: -32602, message: 'Invalid params: "notifications.taskIds" must be an array of task id strings' } });
    await taskRequest(7, 'tasks/cancel', { taskId });
  });
});
