/**
 * RedisTaskChannel with the task runtime, two servers in this process on one redis-server
 * (createRedisState each, over HTTP): what pub/sub cannot promise. A lost cancellation
 * still stops the handler at its next write, and whatever else is published on the task
 * channels (malformed, foreign) is ignored. The three-process proof is test/redis/cluster.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { createRedisState, type RedisState } from '../../src/redis.js';
import type { TaskChannel } from '../../src/index.js';
import { waitFor } from '../../src/testing/index.js';
import type { RedisServer } from '../support/redis.js';
import { META_SUBSCRIPTION_ID, modernRequest, openStream } from '../fixtures/modern-http.mjs';
import { connectClient, freshPrefix, useRedis } from './support.js';

type Json = Record<string, unknown>;
const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { elicitation: {}, extensions: { [TASKS]: {} } };
const none = { type: 'object', properties: {} } as const;
const question = { message: 'Name?', requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] } };

const redisServer = useRedis();
let redis: RedisServer;
beforeAll(() => {
  redis = redisServer();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Instance {
  url: string;
  server: McpServer;
  state: RedisState;
}

/** One instance: its own client, createRedisState on the shared prefix; `channel` may wrap the task channel. */
async function instance(name: string, prefix: string, channel: (inner: TaskChannel) => TaskChannel = (inner) => inner): Promise<Instance> {
  const client = await connectClient(redis);
  const state = await createRedisState({ client, prefix, instanceId: name, stateKeys: ['task-channel-test-key-0123456789abcdef'] });
  const server = new McpServer({ name, version: '1.0.0', ...state.server, tasks: { ...state.server.tasks, channel: channel(state.server.tasks.channel) } });
  const listener: McpHttpListener = await listen(server, { port: 0, keepAliveMs: 0, ...state.http });
  cleanups.push(() => listener.close({ graceMs: 0 }), () => state.close());
  return { url: listener.url, server, state };
}

async function call(url: string, id: number, method: string, params: Json): Promise<Json> {
  const headers = typeof params['taskId'] === 'string' ? { 'mcp-name': params['taskId'] } : {};
  const answer = await modernRequest(url, id, method, params, { capabilities: WITH_TASKS, headers });
  const message = answer.messages[0] as { result?: Json; error?: unknown };
  if (message.result === undefined) throw new Error(`${method}: ${answer.text}`);
  const { _meta: _server, ...result } = message.result;
  return result;
}

describe('RedisTaskChannel', () => {
  it('a cancellation whose message is lost still holds: the task is cancelled everywhere and its handler stops at its next write', async () => {
    const prefix = freshPrefix();
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    const a = await instance('a', prefix);
    a.server.tool('gated', { input: none, task: 'required' }, async (_args, ctx) => {
      await gate;
      seen.push(`aborted before asking: ${ctx.signal.aborted}`);
      try {
        await ctx.elicit(question);
      } catch (error) {
        seen.push(`elicit: ${(error as Error).name}`);
      }
      seen.push(`signal: ${(ctx.signal.reason as Error | undefined)?.name}`);
      return 'ignored';
    });
    // B's cancellations never reach A (pub/sub is at most once).
    const b = await instance('b', prefix, (inner) => ({ ...bound(inner), deliver: async () => undefined }));

    const { taskId } = await call(a.url, 1, 'tools/call', { name: 'gated', arguments: {} });
    expect(await call(b.url, 2, 'tasks/cancel', { taskId })).toEqual({ resultType: 'complete' });
    expect(await call(a.url, 3, 'tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
    release();
    await waitFor('the handler on A to stop', () => seen.length === 3);
    expect(seen).toEqual(['aborted before asking: false', 'elicit: TaskCancelledError', 'signal: TaskCancelledError']);
    expect(await call(a.url, 4, 'tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
    expect(await call(a.url, 5, 'tasks/get', { taskId })).not.toHaveProperty('inputRequests');
  });

  it('ignores malformed and foreign messages on the task channels; answers posted to B reach A, and B follows the task once per change', async () => {
    const prefix = freshPrefix();
    const a = await instance('a', prefix);
    const b = await instance('b', prefix);
    // Every instance serves the same tools.
    for (const { server } of [a, b]) {
      server.tool('ask', { input: none, task: 'required' }, async (_args, ctx) => {
        const answer = await ctx.elicit(question, { key: 'name' });
        return `Hello, ${String(answer.content?.['name'])}`;
      });
    }
    const { taskId } = (await call(a.url, 1, 'tools/call', { name: 'ask', arguments: {} })) as { taskId: string };
    await waitFor('the task to ask', async () => (await call(b.url, 2, 'tasks/get', { taskId }))['status'] === 'input_required');
    const stream = await openStream(b.url, 'follow', 'subscriptions/listen', { notifications: { taskIds: [taskId] } }, { capabilities: WITH_TASKS });
    expect(await stream.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [taskId] } } });

    const raw = await connectClient(redis);
    for (const message of ['not json', '[]', '{"type":"input","taskId":7}', '{"type":"input","taskId":"x"}', `{"type":"input","taskId":"${taskId}","inputResponses":[1]}`, '{"type":"cancel"}', '{"type":"stop","taskId":"x"}']) {
      await raw.sendCommand(['PUBLISH', `${prefix}tasks:i:a`, message]);
    }
    for (const record of [null, { taskId: 'other', status: 'working' }, { taskId, status: 'paused', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: 1 }, { taskId, status: 'completed' }]) {
      await raw.sendCommand(['PUBLISH', `${prefix}tasks:s:${taskId}`, JSON.stringify({ origin: 'elsewhere', record })]);
    }
    expect(await call(b.url, 3, 'tasks/update', { taskId, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } })).toEqual({ resultType: 'complete' });

    const pushed: Json[] = [];
    while (pushed.at(-1)?.['status'] !== 'completed') pushed.push(((await stream.next()) as { params: Json }).params);
    stream.close();
    // A's own input_required may still be on its way when B starts following; nothing else arrives.
    if (pushed[0]?.['status'] === 'input_required') pushed.shift();
    expect(pushed.map((task) => task['status'])).toEqual(['working', 'completed']);
    const [working, done] = pushed as [Json, Json];
    expect(working).toMatchObject({ taskId, _meta: { [META_SUBSCRIPTION_ID]: 'follow' } });
    const { _meta: _sub, ...final } = done;
    const polled = await call(b.url, 4, 'tasks/get', { taskId });
    expect({ resultType: 'complete', ...final }).toEqual(polled);
    expect(polled).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Hello, Ada' }] } });
  });
});

/** The channel's methods as plain functions (its fields are private). */
function bound(channel: TaskChannel): TaskChannel {
  return {
    deliver: (signal) => channel.deliver(signal),
    receive: (listener) => channel.receive(listener),
    changed: (record) => channel.changed(record),
    watch: (taskId, listener) => channel.watch(taskId, listener),
  };
}
