/**
 * A hostile 2025-11-25 server: its CreateTaskResult, tasks/get and tasks/result answers
 * are anything at all (another task id, an unknown status, missing fields, a result that
 * is not a tool result, a task that never ends). Every call settles: the tool's result,
 * a precise error, or the bounded wait — and nothing escapes as an unhandled rejection.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, McpError, McpTransportError, StreamableHttpTransport } from '../../src/client.js';
import { eventually } from '../support/eventually.js';

type Json = Record<string, unknown>;
const task = (taskId: string, status: string): Json => ({ taskId, status, createdAt: '2025-11-25T10:00:00Z', lastUpdatedAt: '2025-11-25T10:00:00Z', ttl: null, pollInterval: 0 });

describe('a hostile 2025-11-25 task server', () => {
  let server: http.Server;
  let url: string;
  let created: unknown = { task: task('t-1', 'working') };
  let taskAnswer: (taskId: string) => unknown = (taskId) => task(taskId, 'completed');
  let resultAnswer: unknown = { content: [{ type: 'text', text: 'ok' }] };
  const cancelled: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    server = http.createServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: unknown; method: string; params?: { taskId?: string } };
        if (message.id === undefined) return void res.writeHead(202).end();
        const taskId = message.params?.taskId ?? 't-1';
        const answers: Record<string, () => unknown> = {
          initialize: () => ({ protocolVersion: '2025-11-25', capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } }, serverInfo: { name: 'hostile', version: '1' } }),
          'tools/list': () => ({ tools: [{ name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } }] }),
          'tools/call': () => created,
          'tasks/get': () => taskAnswer(taskId),
          'tasks/result': () => resultAnswer,
          'tasks/cancel': () => (cancelled.push(taskId), task(taskId, 'cancelled')),
        };
        const answer = answers[message.method];
        const result = answer === undefined ? {} : answer();
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

  async function connected(options: ConstructorParameters<typeof Client>[0] = {}): Promise<Client> {
    const client = new Client({ protocolVersion: '2025-11-25', validateStructuredContent: false, ...options });
    await client.connect(new StreamableHttpTransport(url, { openGetStream: false }));
    await client.listTools();
    return client;
  }

  const status = fc.oneof(fc.constantFrom('working', 'input_required', 'completed', 'failed', 'cancelled', 'done', 'COMPLETED', ''), fc.jsonValue({ maxDepth: 1 }));
  const taskLike = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record(
      { taskId: fc.oneof(fc.constant('t-1'), fc.string({ maxLength: 8 }), fc.integer()), status, createdAt: fc.option(fc.string(), { nil: undefined }), ttl: fc.option(fc.oneof(fc.integer(), fc.constant(null)), { nil: undefined }), pollInterval: fc.option(fc.oneof(fc.integer(), fc.double()), { nil: undefined }) },
      { requiredKeys: ['taskId', 'status'] },
    ),
  );
  const createdLike = fc.oneof(fc.jsonValue({ maxDepth: 3 }), taskLike.map((t) => ({ task: t })));
  const resultLike = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant({ content: [{ type: 'text', text: 'ok' }] }),
    fc.record({ content: fc.jsonValue({ maxDepth: 2 }), _meta: fc.option(fc.record({ 'io.modelcontextprotocol/related-task': fc.jsonValue({ maxDepth: 1 }) }), { nil: undefined }) }),
  );

  it('any answers settle the call within maxWaitMs: the result, a precise error, or a bounded timeout', async () => {
    const client = await connected({ tasks: { maxWaitMs: 300 } });
    await fc.assert(
      fc.asyncProperty(createdLike, fc.array(taskLike, { minLength: 1, maxLength: 4 }), resultLike, async (create, sequence, payload) => {
        created = create;
        resultAnswer = payload;
        let n = 0;
        taskAnswer = () => sequence[Math.min(n++, sequence.length - 1)];
        const outcome = await client.callTool('job').then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
        if ('error' in outcome) {
          expect(outcome.error instanceof McpError || outcome.error instanceof McpTransportError).toBe(true);
          expect((outcome.error as Error).message).toMatch(/task|result|status|content/i);
        } else {
          // A result only comes from tasks/result, and only a tool result for this task.
          expect(outcome.result).toEqual(payload);
          expect(Array.isArray((payload as Json)['content'])).toBe(true);
        }
      }),
      { numRuns: 80 },
    );
    // The client still works, and nothing escaped.
    created = { task: task('t-1', 'working') };
    taskAnswer = (taskId) => task(taskId, 'completed');
    resultAnswer = { content: [{ type: 'text', text: 'fine' }], _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't-1' } } };
    expect(await client.callTool('job')).toMatchObject({ content: [{ text: 'fine' }] });
    await client.close();
    expect(unhandled).toEqual([]);
  });

  it('precise errors: another task id, an unknown status, a missing status, another task’s result', async () => {
    const client = await connected();
    created = { task: task('t-1', 'working') };
    taskAnswer = () => task('t-2', 'completed');
    await expect(client.callTool('job')).rejects.toMatchObject({ method: 'tasks/get', message: expect.stringContaining('another task id ("t-2")') });
    taskAnswer = (taskId) => task(taskId, 'finished');
    await expect(client.callTool('job')).rejects.toMatchObject({ message: expect.stringContaining('unknown status "finished"') });
    taskAnswer = (taskId) => ({ taskId });
    await expect(client.callTool('job')).rejects.toMatchObject({ message: expect.stringContaining('unknown status undefined') });
    created = { task: { status: 'working' } };
    await expect(client.callTool('job')).rejects.toMatchObject({ method: 'tools/call', message: expect.stringContaining('task id that is not a string') });
    created = { task: task('t-1', 'completed') };
    resultAnswer = { content: [], _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't-9' } } };
    await expect(client.callTool('job')).rejects.toMatchObject({ method: 'tasks/result', message: expect.stringContaining('another task ("t-9")') });
    resultAnswer = { task: task('t-1', 'completed') };
    await expect(client.callTool('job')).rejects.toMatchObject({ method: 'tasks/result', message: expect.stringContaining('not a tool result') });
    await client.close();
  });

  it('a task that never ends is bounded by maxWaitMs and cancelled with tasks/cancel', async () => {
    cancelled.length = 0;
    created = { task: task('t-1', 'working') };
    taskAnswer = (taskId) => task(taskId, 'working');
    const client = await connected();
    await expect(client.callTool('job', {}, { task: { maxWaitMs: 100 } })).rejects.toMatchObject({ kind: 'timeout' });
    await eventually(() => cancelled.includes('t-1'), { message: 'tasks/cancel t-1' });
    // A server without tasks.list: refused before anything is sent.
    await expect(client.tasks.list()).rejects.toMatchObject({ code: -32601, message: expect.stringContaining('tasks.list') });
    await client.close();
  });
});
