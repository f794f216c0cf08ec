/**
 * The tasks extension through mcpkit/client, against mcpkit's demo (its task
 * tools, examples/everything-server/tasks.js) in memory and over Streamable
 * HTTP, and against a hostile server whose task answers are anything at all.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport, McpError, McpTransportError, StreamableHttpTransport, type ClientOptions, type ClientTask, type ClientTransport } from '../../src/client.js';
import { listen } from '../../src/adapters/node.js';
import { createEverythingServer } from '../../examples/everything-server/server.js';
import { eventually } from '../support/eventually.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const answers: ClientOptions = {
  elicitation: (params) => ({ action: 'accept', content: params.mode === 'url' ? {} : 'confirm' in params.requestedSchema.properties ? { confirm: true } : { name: 'Ada' } }),
};

async function transportFor(kind: 'memory' | 'http'): Promise<ClientTransport> {
  if (kind === 'memory') return new InMemoryTransport(createEverythingServer());
  const listener = await listen(createEverythingServer(), { port: 0 });
  cleanup.push(() => listener.close());
  return new StreamableHttpTransport(listener.url);
}

async function connected(kind: 'memory' | 'http', options: ClientOptions = {}): Promise<Client> {
  const client = new Client({ ...answers, protocolVersion: '2026-07-28', ...options });
  await client.connect(await transportFor(kind));
  cleanup.push(() => client.close());
  return client;
}

const text = (result: { content: unknown[] }): unknown => (result.content[0] as { text?: unknown }).text;

describe.each(['memory', 'http'] as const)('tasks over %s', (kind) => {
  it("callTool awaits a task: 'required' tool without the caller knowing; statuses are reported", async () => {
    const client = await connected(kind);
    const seen: ClientTask[] = [];
    const result = await client.callTool('failing_job', {}, { task: { onStatus: (task) => void seen.push(task) } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The job failed: the input data was rejected' }] });
    expect(seen[0]).toMatchObject({ status: 'working', taskId: expect.any(String) });
    expect(seen.at(-1)).toMatchObject({ status: 'completed' });
  });

  it('a raw request does not declare the extension (it could not await a task handle): -32021 for a required tool', async () => {
    const client = await connected(kind);
    await expect(client.request('tools/call', { name: 'failing_job', arguments: {} })).rejects.toMatchObject({ code: -32021 });
  });

  it('on a legacy session the same tool simply runs (no task)', async () => {
    const client = await connected(kind, { protocolVersion: '2025-11-25' });
    const seen: ClientTask[] = [];
    const result = await client.callTool('failing_job', {}, { task: { onStatus: (task) => void seen.push(task) } });
    expect(result).toMatchObject({ isError: true, content: [{ text: 'The job failed: the input data was rejected' }] });
    expect(seen).toEqual([]);
  });

  it('answers input asked before the task starts (MRTR) and inside it (tasks/update) with the same handler', async () => {
    const client = await connected(kind);
    expect(text(await client.callTool('test_tool_with_task'))).toBe('Hello, Ada! Your task is done.');
    const seen: string[] = [];
    const result = await client.callTool('confirm_delete', { filename: 'notes.txt' }, { task: { onStatus: (task) => void seen.push(task.status) } });
    expect(text(result)).toBe('Deleted notes.txt');
    expect(seen).toContain('input_required');
  });

  it('a failed task rejects with its JSON-RPC code and message', async () => {
    const client = await connected(kind);
    const error = await client.callTool('protocol_error_job').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32603, message: expect.stringContaining('The job failed: its worker stopped responding') });
  });

  it('start → get → result, and cancel: the task ends cancelled', async () => {
    const client = await connected(kind);
    const started = await client.tasks.start('slow_compute', { seconds: 0, label: 'quick' });
    if (!('task' in started)) throw new Error('expected a task');
    expect((await client.tasks.get(started.task.taskId)).taskId).toBe(started.task.taskId);
    expect(text(await client.tasks.result(started.task))).toBe('Computed quick after 0 second(s)');

    const slow = await client.tasks.start('slow_compute', { seconds: 60 });
    if (!('task' in slow)) throw new Error('expected a task');
    await client.tasks.cancel(slow.task.taskId);
    expect((await client.tasks.get(slow.task.taskId)).status).toBe('cancelled');
    await expect(client.tasks.result(slow.task.taskId)).rejects.toMatchObject({ data: { status: 'cancelled' } });
  });

  it('aborting the call sends tasks/cancel; maxWaitMs bounds the wait and cancels too', async () => {
    const client = await connected(kind);
    const ids: string[] = [];
    const abort = new AbortController();
    const aborted = client.callTool('slow_compute', { seconds: 60 }, { signal: abort.signal, task: { onStatus: (task) => (ids.push(task.taskId), abort.abort()) } });
    await expect(aborted).rejects.toMatchObject({ kind: 'aborted' });
    const overdue = client.callTool('slow_compute', { seconds: 60 }, { task: { maxWaitMs: 1, onStatus: (task) => void ids.push(task.taskId) } });
    await expect(overdue).rejects.toBeInstanceOf(McpTransportError);
    await expect(overdue).rejects.toMatchObject({ kind: 'timeout', message: expect.stringContaining('maxWaitMs') });
    expect(ids).toHaveLength(2);
    for (const id of ids) await eventually(async () => (await client.tasks.get(id)).status === 'cancelled', { message: `task ${id} cancelled` });
  });

  it('listen: statuses arrive as notifications/tasks on a subscriptions/listen stream', async () => {
    const client = await connected(kind, { tasks: { listen: true } });
    const pushed: unknown[] = [];
    client.on('notifications/tasks', (params) => void pushed.push(params['status']));
    expect(text(await client.callTool('confirm_delete', { filename: 'a.txt' }))).toBe('Deleted a.txt');
    expect(pushed).toContain('completed');
  });

  it("tasks: false declares no extension: a task: 'required' tool is refused (-32021)", async () => {
    const client = await connected(kind, { tasks: false });
    await expect(client.callTool('failing_job')).rejects.toMatchObject({ code: -32021 });
    expect(text(await client.callTool('slow_compute', { seconds: 0 }))).toBe('Computed job after 0 second(s)');
  });
});

it('refuses misspelt tasks options with the nearest key', () => {
  expect(() => new Client({ tasks: { maxWait: 5 } as never })).toThrow(/maxWait.*maxWaitMs/s);
  expect(() => new Client({ tasks: { maxWaitMs: -1 } })).toThrow(/non-negative integer/);
});

describe('a hostile server answering tasks/get', () => {
  let server: http.Server;
  let url: string;
  let taskAnswer: (taskId: string) => unknown = () => ({});
  const cancelled: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: unknown; method: string; params?: { taskId?: string } };
        if (message.id === undefined) return void res.writeHead(202).end();
        const taskId = message.params?.taskId ?? 't-1';
        if (message.method === 'tasks/cancel') cancelled.push(taskId);
        const result =
          message.method === 'server/discover'
            ? { supportedVersions: ['2026-07-28'], capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } }
            : message.method === 'tools/call'
              ? { resultType: 'task', taskId: 't-1', status: 'working', pollIntervalMs: 0 }
              : message.method === 'tasks/get'
                ? taskAnswer(taskId)
                : {};
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await new Promise((resolve) => server.close(resolve));
  });

  const status = fc.oneof(fc.constantFrom('working', 'input_required', 'completed', 'failed', 'cancelled', 'done', 'COMPLETED', ''), fc.jsonValue({ maxDepth: 1 }));
  const answer = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record({ taskId: fc.oneof(fc.constant('t-1'), fc.string({ maxLength: 8 }), fc.integer()), status, result: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }), error: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }), inputRequests: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }), pollIntervalMs: fc.option(fc.oneof(fc.integer(), fc.double()), { nil: undefined }) }, { requiredKeys: ['taskId', 'status'] }),
  );

  it('any task answer settles the call within maxWaitMs: a result, a precise error, or a bounded timeout', async () => {
    const client = new Client({ protocolVersion: '2026-07-28', validateStructuredContent: false, tasks: { maxWaitMs: 300 } });
    await client.connect(new StreamableHttpTransport(url));
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 4 }), async (sequence) => {
        let n = 0;
        taskAnswer = () => sequence[Math.min(n++, sequence.length - 1)];
        const outcome = await client.callTool('job').then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
        if ('error' in outcome) {
          expect(outcome.error instanceof McpError || outcome.error instanceof McpTransportError).toBe(true);
          expect((outcome.error as Error).message).toMatch(/task|result|handler/i);
        } else {
          const last = sequence[Math.min(n - 1, sequence.length - 1)] as { taskId: string; status: string; result: unknown };
          expect(last).toMatchObject({ taskId: 't-1', status: 'completed' });
          expect(outcome.result).toEqual(last.result);
        }
      }),
      { numRuns: 60 },
    );
    // The client still works, and nothing escaped.
    taskAnswer = () => ({ taskId: 't-1', status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } });
    expect(text(await client.callTool('job'))).toBe('ok');
    await client.close();
    expect(unhandled).toEqual([]);
  });

  it('a task that never ends is bounded by maxWaitMs and cancelled', async () => {
    cancelled.length = 0;
    taskAnswer = (taskId) => ({ taskId, status: 'working' });
    const client = new Client({ protocolVersion: '2026-07-28' });
    await client.connect(new StreamableHttpTransport(url));
    await expect(client.callTool('job', {}, { task: { maxWaitMs: 100 } })).rejects.toMatchObject({ kind: 'timeout' });
    await eventually(() => cancelled.includes('t-1'), { message: 'tasks/cancel t-1' });
    await client.close();
  });
});
