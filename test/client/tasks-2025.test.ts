/**
 * Tasks as revision 2025-11-25 has them, through mcpkit/client, against servers nobody
 * here wrote: the official SDK v1's experimental tasks (McpServer.experimental.tasks,
 * InMemoryTaskStore) over Streamable HTTP on 127.0.0.1, and server-everything's
 * `simulate-research-query` over stdio. Every message both ways is held to the
 * 2025-11-25 schema.
 */
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, McpTransportError, StdioClientTransport, StreamableHttpTransport, type ClientOptions, type ClientTask } from '../../src/client.js';
import { eventually } from '../support/eventually.js';
import { recorded, type Recorded } from './support/recorded.js';

const REVISION = '2025-11-25';
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const text = (result: { content: unknown[] }): unknown => (result.content[0] as { text?: unknown }).text;

/** Tasks the test finishes itself: `release(taskId)` completes one. */
const releases = new Map<string, () => void>();

/** An SDK v1 server with task tools, one per session, over its Streamable HTTP transport. */
function sdkServer(): McpServer {
  const server = new McpServer(
    { name: 'sdk-v1-tasks', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore: new InMemoryTaskStore(), taskMessageQueue: new InMemoryTaskMessageQueue() },
  );
  const tasks = server.experimental.tasks;
  const passthrough = {
    getTask: async (_args: unknown, extra: { taskId: string; taskStore: { getTask(id: string): Promise<unknown> } }) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args: unknown, extra: { taskId: string; taskStore: { getTaskResult(id: string): Promise<unknown> } }) => extra.taskStore.getTaskResult(extra.taskId),
  } as never;
  // Finishes when the test releases it; polls only once a minute, so its status notification is what wakes the client.
  tasks.registerToolTask('held', { inputSchema: { label: z.string() }, execution: { taskSupport: 'required' } }, {
    ...(passthrough as object),
    createTask: async ({ label }: { label: string }, extra: { taskStore: { createTask(o: object): Promise<{ taskId: string }>; storeTaskResult(id: string, s: string, r: object): Promise<void> } }) => {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 60_000 });
      releases.set(task.taskId, () => void extra.taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: `held ${label}` }] }));
      return { task };
    },
  } as never);
  // Done at once, polled at 10 ms.
  tasks.registerToolTask('quick', { inputSchema: { n: z.number() }, execution: { taskSupport: 'optional' } }, {
    ...(passthrough as object),
    createTask: async ({ n }: { n: number }, extra: { taskStore: { createTask(o: object): Promise<{ taskId: string }>; storeTaskResult(id: string, s: string, r: object): Promise<void> } }) => {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 10 });
      setImmediate(() => void extra.taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: `task ${n * 2}` }] }));
      return { task };
    },
  } as never);
  // Fails the way the spec says a tool does: status failed, an isError result.
  tasks.registerToolTask('broken', { execution: { taskSupport: 'required' } }, {
    ...(passthrough as object),
    createTask: async (extra: { taskStore: { createTask(o: object): Promise<{ taskId: string }>; storeTaskResult(id: string, s: string, r: object): Promise<void> } }) => {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 10 });
      setImmediate(() => void extra.taskStore.storeTaskResult(task.taskId, 'failed', { content: [{ type: 'text', text: 'it broke' }], isError: true }));
      return { task };
    },
  } as never);
  // Asks the client a question mid-run (related-task elicitation, delivered through tasks/result).
  tasks.registerToolTask('asks', { execution: { taskSupport: 'required' } }, {
    ...(passthrough as object),
    createTask: async (extra: { taskStore: { createTask(o: object): Promise<{ taskId: string }>; updateTaskStatus(id: string, s: string, m?: string): Promise<void>; storeTaskResult(id: string, s: string, r: object): Promise<void> }; sendRequest(r: object, schema: unknown, o: object): Promise<{ action: string; content?: { name?: string } }> }) => {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 10 });
      void (async () => {
        await extra.taskStore.updateTaskStatus(task.taskId, 'input_required', 'who are you?');
        const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } }, ElicitResultSchema, { relatedTask: { taskId: task.taskId } });
        await extra.taskStore.updateTaskStatus(task.taskId, 'working');
        await extra.taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: `hello ${answer.content?.name ?? answer.action}` }] });
      })();
      return { task };
    },
  } as never);
  // Asks the client for a task-augmented elicitation (the client declares no tasks capability).
  server.registerTool('asks-as-task', {}, async () => {
    const answer = await server.server.request({ method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } }, task: { ttl: 5000 } } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: `answered ${JSON.stringify(answer)}` }] };
  });
  server.registerTool('plain', { inputSchema: { word: z.string() } }, ({ word }) => ({ content: [{ type: 'text', text: `plain ${word}` }] }));
  return server;
}

/** The SDK v1 server on 127.0.0.1: a session (server + transport) per initialize. */
async function sdkUrl(): Promise<string> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const listener = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      void (async () => {
        const parsed: unknown = body === '' ? undefined : JSON.parse(body);
        const id = req.headers['mcp-session-id'];
        let transport = typeof id === 'string' ? sessions.get(id) : undefined;
        if (transport === undefined) {
          if (req.method !== 'POST' || (parsed as { method?: string } | undefined)?.method !== 'initialize') return void res.writeHead(typeof id === 'string' ? 404 : 400).end();
          const created = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void sessions.set(sid, created) });
          await sdkServer().connect(created);
          transport = created;
        }
        await transport.handleRequest(req, res, parsed);
      })();
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    for (const transport of sessions.values()) await transport.close();
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  });
  return `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
}

const answers: ClientOptions = { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) };

async function connected(options: ClientOptions = {}): Promise<{ client: Client; wire: Recorded }> {
  const wire = recorded(new StreamableHttpTransport(await sdkUrl()));
  const client = new Client({ ...answers, ...options });
  await client.connect(wire.transport);
  cleanup.push(() => client.close());
  expect(client.protocolVersion).toBe(REVISION);
  await client.listTools();
  return { client, wire };
}

describe('2025-11-25 tasks against the SDK v1 server', () => {
  it("callTool sends a 'required' tool as a task and awaits it: the status notification wakes the wait, then tasks/result", async () => {
    const { client, wire } = await connected();
    const seen: ClientTask[] = [];
    const call = client.callTool('held', { label: 'x' }, { task: { onStatus: (task) => void seen.push(task) } });
    await eventually(() => seen.length > 0, { message: 'the created task reported' });
    expect(seen[0]).toMatchObject({ status: 'working', pollIntervalMs: 60_000, ttlMs: 60_000 });
    releases.get(seen[0]!.taskId)!();
    expect(text(await call)).toBe('held x');
    expect(seen.at(-1)).toMatchObject({ taskId: seen[0]!.taskId, status: 'completed' });
    const request = wire.sent.find((m) => m['method'] === 'tools/call')!;
    expect(request['params']).toMatchObject({ name: 'held', task: {} });
    // The server's poll interval is a minute (clamped to 5 s): the notification, not a poll, ended the wait.
    expect(wire.methods().filter((m) => m.startsWith('tasks/'))).toEqual(['tasks/result']);
    expect(wire.received.some((m) => m['method'] === 'notifications/tasks/status')).toBe(true);
    wire.expectValid(REVISION);
  });

  it("an 'optional' tool runs synchronously unless the caller asks for a task (task.create)", async () => {
    const { client, wire } = await connected();
    const direct = await client.callTool('quick', { n: 2 }).catch((error: unknown) => error);
    // The SDK runs an optional task tool without a task by wrapping it; either way no task is asked for.
    expect(wire.sent.filter((m) => m['method'] === 'tools/call').every((m) => !('task' in (m['params'] as object)))).toBe(true);
    expect(direct).toMatchObject({ content: [{ text: 'task 4' }] });
    expect(text(await client.callTool('quick', { n: 21 }, { task: { create: true, ttlMs: 30_000 } }))).toBe('task 42');
    expect(wire.sent.filter((m) => m['method'] === 'tools/call').at(-1)!['params']).toMatchObject({ task: { ttl: 30_000 } });
    expect(text(await client.callTool('plain', { word: 'hi' }, { task: { create: true } }))).toBe('plain hi');
    expect(wire.sent.filter((m) => m['method'] === 'tools/call').at(-1)!['params']).not.toHaveProperty('task');
    wire.expectValid(REVISION);
  });

  it('a failed task returns its isError result; a question mid-run reaches the elicitation handler', async () => {
    const { client, wire } = await connected();
    expect(await client.callTool('broken')).toMatchObject({ isError: true, content: [{ text: 'it broke' }] });
    expect(text(await client.callTool('asks'))).toBe('hello Ada');
    const elicitation = wire.received.find((m) => m['method'] === 'elicitation/create')!;
    expect(elicitation['params']).toMatchObject({ _meta: { 'io.modelcontextprotocol/related-task': { taskId: expect.any(String) } } });
    wire.expectValid(REVISION);
  });

  it('client.tasks: start, get, list, result, cancel; update is refused precisely', async () => {
    const { client, wire } = await connected();
    const started = await client.tasks.start('held', { label: 'y' });
    if (!('task' in started)) throw new Error('expected a task');
    const { taskId } = started.task;
    expect(await client.tasks.get(taskId)).toMatchObject({ taskId, status: 'working' });
    expect((await client.tasks.list()).tasks.map((t) => t.taskId)).toContain(taskId);
    await expect(client.tasks.update(taskId, {})).rejects.toMatchObject({ code: -32601, message: expect.stringContaining('2025-11-25 has no tasks/update') });
    await client.tasks.cancel(taskId);
    expect((await client.tasks.get(taskId)).status).toBe('cancelled');
    await expect(client.tasks.result(taskId)).rejects.toMatchObject({ data: { status: 'cancelled' } });
    // A plain tool through start answers at once.
    expect(await client.tasks.start('plain', { word: 'z' })).toEqual({ result: { content: [{ type: 'text', text: 'plain z' }] } });
    expect(wire.methods()).not.toContain('tasks/update');
    wire.expectValid(REVISION);
  });

  it('aborting the call and maxWaitMs both send tasks/cancel; the server sees the task cancelled', async () => {
    const { client, wire } = await connected();
    const ids: string[] = [];
    const abort = new AbortController();
    const aborted = client.callTool('held', { label: 'a' }, { signal: abort.signal, task: { onStatus: (task) => (ids.push(task.taskId), abort.abort()) } });
    await expect(aborted).rejects.toMatchObject({ kind: 'aborted' });
    const overdue = client.callTool('held', { label: 'b' }, { task: { maxWaitMs: 50, onStatus: (task) => void ids.push(task.taskId) } });
    await expect(overdue).rejects.toBeInstanceOf(McpTransportError);
    await expect(overdue).rejects.toMatchObject({ kind: 'timeout', message: expect.stringContaining('maxWaitMs') });
    expect(ids).toHaveLength(2);
    for (const id of ids) await eventually(async () => (await client.tasks.get(id)).status === 'cancelled', { message: `task ${id} cancelled` });
    expect(wire.sent.filter((m) => m['method'] === 'tasks/cancel').map((m) => (m['params'] as { taskId: string }).taskId)).toEqual(ids);
    wire.expectValid(REVISION);
  });

  it('a task-augmented elicitation from the server is answered normally: the client declares no tasks capability', async () => {
    const { client, wire } = await connected({ elicitation: (params) => ({ action: 'accept', content: { go: !('task' in params) } }) });
    const result = await client.callTool('asks-as-task');
    expect(text(result)).toBe('answered {"action":"accept","content":{"go":true}}');
    expect(wire.sent.find((m) => m['method'] === 'initialize')!['params']).not.toHaveProperty('capabilities.tasks');
    expect(wire.received.find((m) => m['method'] === 'elicitation/create')!['params']).toHaveProperty('task', { ttl: 5000 });
    wire.expectValid(REVISION);
  });

  it('before 2025-11-25 nothing is a task: the call is sent as is (and the SDK refuses a required tool with an isError result)', async () => {
    const wire = recorded(new StreamableHttpTransport(await sdkUrl()));
    const client = new Client({ protocolVersion: '2025-06-18' });
    await client.connect(wire.transport);
    cleanup.push(() => client.close());
    await client.listTools();
    expect(await client.callTool('held', { label: 'old' })).toMatchObject({ isError: true });
    expect(wire.methods().filter((m) => m.startsWith('tasks/'))).toEqual([]);
    expect(wire.sent.find((m) => m['method'] === 'tools/call')!['params']).not.toHaveProperty('task');
    await expect(client.tasks.list()).rejects.toMatchObject({ code: -32601, message: expect.stringContaining('tasks.list') });
  });
});

const require = createRequire(import.meta.url);
const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

describe('2025-11-25 tasks against server-everything over stdio', () => {
  it('simulate-research-query (taskSupport required): polled at its interval, the clarification asked through tasks/result', async () => {
    const wire = recorded(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], onStderr: () => undefined }));
    const asked: string[] = [];
    const client = new Client({ elicitation: (params) => (asked.push(params.message), { action: 'accept', content: { interpretation: 'technical' } }) });
    await client.connect(wire.transport);
    cleanup.push(() => client.close());
    await eventually(async () => (await client.listTools()).tools.some((t) => t.name === 'simulate-research-query'), { message: 'the task tool listed' });
    const statuses: string[] = [];
    const result = await client.callTool('simulate-research-query', { topic: 'compilers', ambiguous: true }, { task: { onStatus: (task) => void statuses.push(task.status) } });
    expect(text(result)).toContain('Research Report: compilers (technical)');
    expect(asked).toEqual([expect.stringContaining('compilers')]);
    expect(statuses[0]).toBe('working');
    expect(wire.methods()).toContain('tasks/result');
    wire.expectValid(REVISION);
  }, 30_000);
});
