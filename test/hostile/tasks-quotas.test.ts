/**
 * The task store is bounded in count and bytes, per owner and in total, and
 * never evicts: one client filling it gets a clear error while another's
 * tasks (finished results included) stay readable for their ttl. A task that
 * waits for input longer than `taskInputTimeoutMs` fails with a clear error.
 * Real HTTP servers, bearer-token principals.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer, type McpServerConfig } from '../../src/index.js';
import { createFetchHandler, listen, type McpHttpListener } from '../../src/http.js';
import { MODERN, meta, routingHeaders } from '../fixtures/modern-http.mjs';
import { expectValidWire } from '../support/wire-schema.js';
import { MemoryTaskStore, type MemoryTaskStoreOptions } from '../../src/stores/tasks.js';
import { bearer, heapAfterGc, modernCall, modernResult, WITH_TASKS, type Json } from './tasks-support.js';

const none = { type: 'object', properties: {} } as const;
const sized = { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] } as const;
const listeners: McpHttpListener[] = [];
const aborted: string[] = [];

async function serve(storeOptions: MemoryTaskStoreOptions, config: Partial<McpServerConfig> = {}): Promise<{ url: string; store: MemoryTaskStore }> {
  const store = new MemoryTaskStore(storeOptions);
  const server = new McpServer({ name: 'tasks-quotas', version: '1.0.0', tasks: { store: store }, ...config });
  server.tool('hang', { input: none, task: 'optional' }, (_args, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))));
  server.tool('big', { input: sized, task: 'optional' }, ({ size }) => 'x'.repeat(Number(size)));
  server.tool('ask', { input: sized, task: 'optional' }, async ({ size }, ctx) => {
    ctx.signal.addEventListener('abort', () => aborted.push(String(ctx.signal.reason instanceof Error ? ctx.signal.reason.message : ctx.signal.reason)));
    const answer = await ctx.elicit({ message: 'm'.repeat(Number(size)), requestedSchema: { type: 'object', properties: {} } }, { key: 'q' });
    return `answered ${answer.action}`;
  });
  const listener = await listen(server, { port: 0, host: '127.0.0.1', keepAliveMs: 0, authenticate: bearer });
  listeners.push(listener);
  return { url: listener.url, store };
}

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

async function settled(url: string, taskId: string, user: string): Promise<Json> {
  let task: Json = {};
  await expect
    .poll(async () => {
      task = await modernResult(url, 'tasks/get', { taskId }, { user });
      return task['status'] !== 'working' && task['status'] !== 'input_required';
    })
    .toBe(true);
  return task;
}

describe('per-owner task quotas', () => {
  it('an owner over its task count gets a clear -32603; other owners still create tasks', async () => {
    const { url } = await serve({ maxTasksPerOwner: 3 });
    for (let i = 0; i < 3; i++) await modernResult(url, 'tools/call', { name: 'hang', arguments: {} }, { user: 'mallory' });
    const refused = await modernCall(url, 'tools/call', { name: 'hang', arguments: {} }, { user: 'mallory' });
    expect(refused.message['error']).toEqual({
      code: -32603,
      message: 'Too many tasks: this client already has 3 tasks (the limit is 3); wait for them to finish and expire, or cancel some',
      data: { limit: 'maxTasksPerOwner' },
    });
    const other = await modernResult(url, 'tools/call', { name: 'hang', arguments: {} }, { user: 'alice' });
    expect(other['resultType']).toBe('task');
    // Cancelling does not make room before the ttl: the cancelled tasks stay readable.
    const anon = await modernResult(url, 'tools/call', { name: 'hang', arguments: {} });
    expect(anon['resultType']).toBe('task');
  });

  it('a full store refuses new tasks and never evicts another owner\'s finished result before its ttl', async () => {
    const { url } = await serve({ maxTasks: 5, maxTasksPerOwner: 3, ttlMs: 600_000 });
    const done = await modernResult(url, 'tools/call', { name: 'big', arguments: { size: 5 } }, { user: 'alice' });
    const aliceTask = String(done['taskId']);
    expect((await settled(url, aliceTask, 'alice'))['status']).toBe('completed');
    for (const user of ['mallory', 'mallory', 'mallory', 'trudy']) await modernResult(url, 'tools/call', { name: 'hang', arguments: {} }, { user });
    const full = await modernCall(url, 'tools/call', { name: 'hang', arguments: {} }, { user: 'trudy' });
    expect(full.message['error']).toEqual({ code: -32603, message: 'The task store is full; retry after some tasks expire', data: { limit: 'maxTasks' } });
    const kept = await modernResult(url, 'tasks/get', { taskId: aliceTask }, { user: 'alice' });
    expect(kept['result']).toEqual({ content: [{ type: 'text', text: 'xxxxx' }], resultType: 'complete' });
  });
});

describe('unauthenticated owners', () => {
  it('are told apart by remote address (fetch adapter): one address at its quota does not block another', async () => {
    const server = new McpServer({ name: 'tasks-by-address', version: '1.0.0', tasks: { store: new MemoryTaskStore({ maxTasksPerOwner: 2 }) } });
    server.tool('hang', { input: none, task: 'optional' }, (_args, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))));
    const handler = createFetchHandler(server, { path: '/mcp', remoteAddress: (request) => request.headers.get('x-test-address') ?? undefined });
    let id = 1;
    const create = async (address: string): Promise<Json> => {
      const body = { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'hang', arguments: {}, _meta: meta(WITH_TASKS) } };
      const response = await handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-test-address': address, ...routingHeaders('tools/call', { name: 'hang' }) },
          body: JSON.stringify(body),
        }),
      );
      const message = (await response.json()) as Json;
      expectValidWire(message, MODERN);
      return message;
    };
    for (const address of ['203.0.113.7', '203.0.113.7']) expect((await create(address))['result']).toMatchObject({ resultType: 'task' });
    expect((await create('203.0.113.7'))['error']).toMatchObject({ code: -32603, data: { limit: 'maxTasksPerOwner' } });
    // IPv6 clients are grouped by /64, like the session caps.
    for (const address of ['2001:db8::1', '2001:db8::2']) expect((await create(address))['result']).toMatchObject({ resultType: 'task' });
    expect((await create('2001:db8::3'))['error']).toMatchObject({ code: -32603, data: { limit: 'maxTasksPerOwner' } });
    expect((await create('198.51.100.1'))['result']).toMatchObject({ resultType: 'task' });
  });
});

describe('task bytes', () => {
  it('a result larger than maxTaskBytes fails the task saying so', async () => {
    const { url } = await serve({ maxTaskBytes: 20_000 });
    const created = await modernResult(url, 'tools/call', { name: 'big', arguments: { size: 30_000 } }, { user: 'alice' });
    const task = await settled(url, String(created['taskId']), 'alice');
    const bytes = JSON.stringify({ content: [{ type: 'text', text: 'x'.repeat(30_000) }], resultType: 'complete' }).length;
    expect(task['status']).toBe('failed');
    expect(task['error']).toEqual({ code: -32603, message: `The task is too large to keep: ${bytes} bytes (the limit is 20000)`, data: { limit: 'maxTaskBytes' } });
    expect('result' in task).toBe(false);
  });

  it('a question larger than maxTaskBytes fails the call that asks it', async () => {
    const { url } = await serve({ maxTaskBytes: 20_000 });
    const created = await modernResult(url, 'tools/call', { name: 'ask', arguments: { size: 30_000 } }, { user: 'alice' });
    const task = await settled(url, String(created['taskId']), 'alice');
    const question = { q: { method: 'elicitation/create', params: { message: 'm'.repeat(30_000), requestedSchema: { type: 'object', properties: {} } } } };
    expect(task['status']).toBe('failed');
    expect(task['error']).toEqual({ code: -32603, message: `The task is too large to keep: ${JSON.stringify(question).length} bytes (the limit is 20000)`, data: { limit: 'maxTaskBytes' } });
  });

  it('an owner over its byte quota has its next result refused; another owner is unaffected', async () => {
    const { url, store } = await serve({ maxTaskBytes: 40_000, maxBytesPerOwner: 70_000, maxTasksPerOwner: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await modernResult(url, 'tools/call', { name: 'big', arguments: { size: 30_000 } }, { user: 'mallory' });
      ids.push(String(created['taskId']));
      await settled(url, String(created['taskId']), 'mallory');
    }
    const third = await modernResult(url, 'tasks/get', { taskId: ids[2] }, { user: 'mallory' });
    expect(third['error']).toEqual({ code: -32603, message: "The task could not be stored: this client's tasks would hold more than 70000 bytes", data: { limit: 'maxBytesPerOwner' } });
    expect(store.usage('sub:mallory').bytes).toBeLessThanOrEqual(70_000);
    const alice = await modernResult(url, 'tools/call', { name: 'big', arguments: { size: 30_000 } }, { user: 'alice' });
    expect((await settled(url, String(alice['taskId']), 'alice'))['status']).toBe('completed');
  });

  it('memory stays bounded after GC while one client offers 30 MB of results', async () => {
    const { url, store } = await serve({ maxTaskBytes: 120_000, maxBytesPerOwner: 2 * 1024 * 1024, maxTasksPerOwner: 1000 });
    const before = heapAfterGc();
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      const { message } = await modernCall(url, 'tools/call', { name: 'big', arguments: { size: 100_000 } }, { user: 'mallory' });
      if (message['error'] === undefined) continue;
      refused++;
      expect(message['error']).toMatchObject({ code: -32603, data: { limit: 'maxBytesPerOwner' } });
    }
    expect(refused).toBeGreaterThan(0);
    expect(store.usage('sub:mallory').bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(store.bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(heapAfterGc() - before).toBeLessThan(12 * 1024 * 1024);
    // Another owner is not affected.
    const alice = await modernResult(url, 'tools/call', { name: 'big', arguments: { size: 100_000 } }, { user: 'alice' });
    expect((await settled(url, String(alice['taskId']), 'alice'))['status']).toBe('completed');
  });
});

describe('input_required timeout', () => {
  it('a task nobody answers fails with a clear error, its handler aborted and its question dropped', async () => {
    const { url } = await serve({}, { tasks: { inputTimeoutMs: 100 } });
    const created = await modernResult(url, 'tools/call', { name: 'ask', arguments: { size: 3 } }, { user: 'alice' });
    const task = await settled(url, String(created['taskId']), 'alice');
    const message = 'Task input timed out: the client did not answer elicitation/create within 100 ms (tasks.inputTimeoutMs), so the task failed';
    expect(task['status']).toBe('failed');
    expect(task['error']).toEqual({ code: -32603, message, data: { timeoutMs: 100 } });
    expect('inputRequests' in task).toBe(false);
    expect(aborted).toContain(message);
    // An answer after the timeout changes nothing.
    await modernResult(url, 'tasks/update', { taskId: created['taskId'], inputResponses: { q: { action: 'accept', content: {} } } }, { user: 'alice' });
    expect((await modernResult(url, 'tasks/get', { taskId: created['taskId'] }, { user: 'alice' }))['status']).toBe('failed');
  });
});
