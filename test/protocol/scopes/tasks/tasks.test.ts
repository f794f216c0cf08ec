/**
 * The tasks extension (SEP-2663) on the 2026-07-28 HTTP wire: task creation,
 * tasks/get|update|cancel, input inside a task, input before the task exists,
 * and the refusals (-32021, -32602, -32601, -32020). The vendored 2026-07-28
 * schema has no task types, so task messages are checked against the JSON-RPC
 * envelope and their exact fields here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProtocolError, McpServer, ToolError } from '../../../../src/index.js';
import { listen, type McpHttpListener } from '../../../../src/http.js';
import { MemoryTaskStore } from '../../../../src/stores/tasks.js';
import { expectValidWire } from '../../../support/wire-schema.js';
import { MODERN, modernRequest, postRaw, until } from '../../../fixtures/modern-http.mjs';

type Json = Record<string, unknown>;
const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { elicitation: {}, extensions: { [TASKS]: {} } };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const none = { type: 'object', properties: {} } as const;
const nameSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] } = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};

/** Promises the test settles itself: the handlers wait on them, never on the clock. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const gates = new Map<string, ReturnType<typeof gate>>();
const seen: { aborted: string[] } = { aborted: [] };

function build(): McpServer {
  const server = new McpServer({ name: 'tasks', version: '1.0.0', tasks: { store: new MemoryTaskStore({ ttlMs: 60_000, pollIntervalMs: 100 }) } });
  server.tool('plain', { input: none }, () => 'plain result');
  server.tool('wait', { input: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] }, task: 'optional' }, async ({ gate: name }, ctx) => {
    const g = gates.get(String(name));
    await new Promise<void>((resolve, reject) => {
      void g?.promise.then(resolve);
      ctx.signal.addEventListener('abort', () => {
        seen.aborted.push(String(name));
        reject(new Error('aborted'));
      });
    });
    return `released ${String(name)}`;
  });
  server.tool('tool_error', { input: none, task: 'required' }, () => {
    throw new ToolError('bad input data');
  });
  server.tool('protocol_error', { input: none, task: 'optional' }, () => {
    throw new JsonRpcProtocolError(-32001, 'worker gone');
  });
  server.tool('two_questions', { input: none, task: 'optional' }, async (_args, ctx) => {
    const [a, b] = await Promise.all([
      ctx.elicit({ message: 'Name?', requestedSchema: nameSchema }, { key: 'first' }),
      ctx.elicit({ message: 'Other name?', requestedSchema: nameSchema }, { key: 'second' }),
    ]);
    return `${String(a.content?.['name'])} and ${String(b.content?.['name'])}`;
  });
  server.tool('ask_then_task', { input: none, task: 'required', taskStart: 'manual' }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: nameSchema }, { key: 'user_name' });
    await ctx.startTask();
    return `Hello, ${String(answer.content?.['name'])}!`;
  });
  return server;
}

let listener: McpHttpListener;
let url: string;
let nextId = 1;

beforeAll(async () => {
  listener = await listen(build(), { port: 0, host: '127.0.0.1', keepAliveMs: 0 });
  url = listener.url;
});
afterAll(async () => {
  for (const g of gates.values()) g.open();
  await listener.close();
});

async function call(method: string, params: Json, capabilities: Json = WITH_TASKS, headers: Record<string, string> = {}): Promise<{ status: number; message: Json }> {
  const taskId = params['taskId'];
  const routing = typeof taskId === 'string' && method.startsWith('tasks/') ? { 'mcp-name': taskId } : {};
  const response = await modernRequest(url, nextId++, method, params, { capabilities, headers: { ...routing, ...headers } });
  const message = response.messages.at(-1) as Json;
  expectValidWire(message, MODERN);
  return { status: response.status, message };
}

async function result(method: string, params: Json, capabilities: Json = WITH_TASKS): Promise<Json> {
  const { message } = await call(method, params, capabilities);
  expect(message['error']).toBeUndefined();
  return message['result'] as Json;
}

function withoutMeta(value: Json): Json {
  const { _meta: _ignored, ...rest } = value;
  return rest;
}

async function settled(taskId: string): Promise<Json> {
  let task: Json = {};
  await until(async () => {
    task = await result('tasks/get', { taskId });
    return task['status'] !== 'working' && task['status'] !== 'input_required';
  });
  return task;
}

async function waitingFor(taskId: string, keys: number): Promise<Json> {
  let task: Json = {};
  await until(async () => {
    task = await result('tasks/get', { taskId });
    return task['status'] === 'input_required' && Object.keys(task['inputRequests'] as Json).length === keys;
  });
  return task;
}

describe('tasks extension: discovery and creation', () => {
  it('server/discover declares the extension; tools/list is unchanged', async () => {
    const discovered = await result('server/discover', {});
    expect((discovered['capabilities'] as Json)['extensions']).toEqual({ [TASKS]: {} });
    expect((discovered['capabilities'] as Json)['tasks']).toBeUndefined();
    const listed = await result('tools/list', {});
    const wait = (listed['tools'] as Json[]).find((t) => t['name'] === 'wait');
    expect(Object.keys(wait ?? {}).sort()).toEqual(['inputSchema', 'name']);
  });

  it('a task-capable tool answers a flat CreateTaskResult, then tasks/get shows working and completed', async () => {
    gates.set('life', gate());
    const created = await result('tools/call', { name: 'wait', arguments: { gate: 'life' } });
    expect(Object.keys(withoutMeta(created)).sort()).toEqual(['createdAt', 'lastUpdatedAt', 'pollIntervalMs', 'resultType', 'status', 'taskId', 'ttlMs']);
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 100 });
    expect(created['createdAt']).toMatch(ISO);
    expect(created['lastUpdatedAt']).toMatch(ISO);
    const taskId = String(created['taskId']);

    const working = await result('tasks/get', { taskId });
    expect(withoutMeta(working)).toEqual({ ...withoutMeta(created), resultType: 'complete' });

    gates.get('life')?.open();
    const done = await settled(taskId);
    expect(done['status']).toBe('completed');
    expect(done['result']).toEqual({ content: [{ type: 'text', text: 'released life' }], resultType: 'complete' });
    expect(done['error']).toBeUndefined();
  });

  it('without the client declaring the extension: optional tools run synchronously, required tools are -32021', async () => {
    gates.set('sync', gate());
    gates.get('sync')?.open();
    const sync = await result('tools/call', { name: 'wait', arguments: { gate: 'sync' } }, { elicitation: {} });
    expect(withoutMeta(sync)).toEqual({ content: [{ type: 'text', text: 'released sync' }], resultType: 'complete' });

    const refused = await call('tools/call', { name: 'tool_error', arguments: {} }, {});
    expect(refused.status).toBe(400);
    expect(refused.message['error']).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
  });

  it('a plain tool never becomes a task, even with a v1 `task` param', async () => {
    const plain = await result('tools/call', { name: 'plain', arguments: {}, task: { ttl: 1000 } });
    expect(withoutMeta(plain)).toEqual({ content: [{ type: 'text', text: 'plain result' }], resultType: 'complete' });
  });
});

describe('tasks extension: outcomes', () => {
  it('a tool error completes the task with result.isError', async () => {
    const created = await result('tools/call', { name: 'tool_error', arguments: {} });
    const done = await settled(String(created['taskId']));
    expect(done['status']).toBe('completed');
    expect(done['result']).toEqual({ content: [{ type: 'text', text: 'bad input data' }], isError: true, resultType: 'complete' });
  });

  it('a JSON-RPC error fails the task with an inline error and no result', async () => {
    const created = await result('tools/call', { name: 'protocol_error', arguments: {} });
    const done = await settled(String(created['taskId']));
    expect(done['status']).toBe('failed');
    expect(done['error']).toEqual({ code: -32001, message: 'worker gone' });
    expect('result' in done).toBe(false);
  });

  it('tasks/cancel aborts the handler, ends the task cancelled, and acks the same way again', async () => {
    gates.set('cancel', gate());
    const created = await result('tools/call', { name: 'wait', arguments: { gate: 'cancel' } });
    const taskId = String(created['taskId']);
    const ack = await result('tasks/cancel', { taskId });
    expect(withoutMeta(ack)).toEqual({ resultType: 'complete' });
    expect(seen.aborted).toContain('cancel');
    const task = await result('tasks/get', { taskId });
    expect(task['status']).toBe('cancelled');
    expect('result' in task || 'error' in task).toBe(false);
    expect(withoutMeta(await result('tasks/cancel', { taskId }))).toEqual({ resultType: 'complete' });
  });
});

describe('tasks extension: input', () => {
  it('input inside a task: input_required with both keys, partial answers keep the rest pending', async () => {
    const created = await result('tools/call', { name: 'two_questions', arguments: {} });
    const taskId = String(created['taskId']);
    const waiting = await waitingFor(taskId, 2);
    expect(waiting['inputRequests']).toEqual({
      first: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: nameSchema } },
      second: { method: 'elicitation/create', params: { message: 'Other name?', requestedSchema: nameSchema } },
    });

    const ack = await result('tasks/update', { taskId, inputResponses: { first: { action: 'accept', content: { name: 'Ada' } }, unknown: { x: 1 } } });
    expect(withoutMeta(ack)).toEqual({ resultType: 'complete' });
    const partial = await result('tasks/get', { taskId });
    expect(partial['status']).toBe('input_required');
    expect(Object.keys(partial['inputRequests'] as Json)).toEqual(['second']);

    await result('tasks/update', { taskId, inputResponses: { second: { action: 'accept', content: { name: 'Grace' } } } });
    const done = await settled(taskId);
    expect(done['result']).toEqual({ content: [{ type: 'text', text: 'Ada and Grace' }], resultType: 'complete' });
  });

  it('taskStart manual: input before the task is an MRTR round; the retry creates the task', async () => {
    const first = await result('tools/call', { name: 'ask_then_task', arguments: {} });
    expect(first['resultType']).toBe('input_required');
    expect(first['taskId']).toBeUndefined();
    expect(Object.keys(first['inputRequests'] as Json)).toEqual(['user_name']);

    const retry = await result('tools/call', {
      name: 'ask_then_task',
      arguments: {},
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      requestState: first['requestState'],
    });
    expect(retry['resultType']).toBe('task');
    expect('requestState' in retry || 'inputRequests' in retry).toBe(false);
    const done = await settled(String(retry['taskId']));
    expect(done['result']).toEqual({ content: [{ type: 'text', text: 'Hello, Alice!' }], resultType: 'complete' });
  });
});

describe('tasks extension: refusals', () => {
  it('tasks/get|update|cancel without the client declaring the extension are -32021', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { status, message } = await call(method, { taskId: 'whatever', inputResponses: {} }, {});
      expect(status).toBe(400);
      expect(message['error']).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    }
  });

  it('an unknown task id is -32602; tasks/result and tasks/list do not exist', async () => {
    expect((await call('tasks/get', { taskId: 'no-such-task' })).message['error']).toMatchObject({ code: -32602 });
    expect((await call('tasks/cancel', { taskId: 'no-such-task' })).message['error']).toMatchObject({ code: -32602 });
    for (const method of ['tasks/result', 'tasks/list']) {
      const { status, message } = await call(method, { taskId: 'no-such-task' });
      expect(status).toBe(404);
      expect(message['error']).toMatchObject({ code: -32601 });
    }
  });

  it('Mcp-Name must match params.taskId on tasks/*', async () => {
    gates.set('headers', gate());
    const created = await result('tools/call', { name: 'wait', arguments: { gate: 'headers' } });
    const taskId = String(created['taskId']);
    const { status, message } = await call('tasks/get', { taskId }, WITH_TASKS, { 'mcp-name': 'another-task' });
    expect(status).toBe(400);
    expect(message['error']).toMatchObject({ code: -32020 });
    await result('tasks/cancel', { taskId });
  });
});

describe('tasks extension: legacy sessions are unaffected', () => {
  it('initialize declares no extension and a task-capable tool answers synchronously', async () => {
    const legacy = '2025-11-25';
    const init = await postRaw(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: legacy, capabilities: {}, clientInfo: { name: 'legacy', version: '1.0.0' } } });
    const initResult = (init.messages[0] as Json)['result'] as Json;
    expectValidWire(init.messages[0], legacy, 'initialize');
    expect((initResult['capabilities'] as Json)['extensions']).toBeUndefined();
    const session = init.headers.get('mcp-session-id') ?? '';
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': legacy };
    await postRaw(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    gates.set('legacy', gate());
    gates.get('legacy')?.open();
    const called = await postRaw(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait', arguments: { gate: 'legacy' } } }, headers);
    const message = called.messages.at(-1) as Json;
    expectValidWire(message, legacy, 'tools/call');
    expect(message['result']).toEqual({ content: [{ type: 'text', text: 'released legacy' }] });
  });
});

describe('MemoryTaskStore', () => {
  it('refuses a ttlMs that is not a positive integer', () => {
    expect(() => new MemoryTaskStore({ ttlMs: 0 })).toThrow(RangeError);
    expect(() => new MemoryTaskStore({ ttlMs: 1.5 })).toThrow(RangeError);
    expect(() => new MemoryTaskStore({ pollIntervalMs: -1 })).toThrow(RangeError);
  });

  it('keeps a terminal task unchanged and forgets it after its ttl', async () => {
    const store = new MemoryTaskStore({ ttlMs: 1 });
    const task = store.create();
    expect(store.update(task.taskId, { status: 'completed', result: { content: [] } })?.status).toBe('completed');
    expect(store.update(task.taskId, { status: 'failed' })?.status).toBe('completed');
    await until(() => store.get(task.taskId) === undefined);
    expect(store.get(task.taskId)).toBeUndefined();
  });

  it('is bounded and never evicts: a full store refuses and keeps the finished task', () => {
    const store = new MemoryTaskStore({ maxTasks: 2 });
    const a = store.create();
    store.update(a.taskId, { status: 'cancelled' });
    store.create();
    expect(() => store.create()).toThrow(/full/);
    expect(store.get(a.taskId)?.status).toBe('cancelled');
    expect(store.size).toBe(2);
  });
});
