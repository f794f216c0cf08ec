/**
 * The HTTP engine while its Redis is down: the 503 answer itself (errors.ts
 * storeUnavailable), and one server on a real redis-server that hangs
 * (SIGSTOP) and then stops. Requests that need the shared stores (a legacy
 * session, initialize, tasks) get 503 with Retry-After; 2026-07-28 requests
 * that need nothing shared are served; after Redis returns all of it works again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer, StoreUnavailableError, type Logger } from '../../src/index.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { createRedisState, type RedisState } from '../../src/redis.js';
import { retryAfterOf, storeUnavailable } from '../../src/transports/http/errors.js';
import { modernRequest } from '../fixtures/modern-http.mjs';
import { eventually } from '../support/eventually.js';
import { LEGACY } from '../support/revisions.js';
import { createClient } from 'redis';
import { freshPrefix, useRedis } from './support.js';

type Json = Record<string, unknown>;
const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { elicitation: {}, extensions: { [TASKS]: {} } };
const OPTIONS = { retryAfterSeconds: 3, commandTimeoutMs: 300 };

describe('storeUnavailable (errors.ts)', () => {
  it('is 503 with Retry-After in whole seconds (at least 1) and a JSON-RPC error naming the cause', () => {
    const response = storeUnavailable(new StoreUnavailableError('Shared state is unavailable: Redis is not connected; retry in 2.5 s', 2.5), 7);
    expect(response).toEqual({
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '3' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'Service unavailable: Shared state is unavailable: Redis is not connected; retry in 2.5 s', data: { retryAfterSeconds: 2.5 } } }),
    });
    expect(storeUnavailable(new StoreUnavailableError('down', 0.01)).headers['retry-after']).toBe('1');
    expect(JSON.parse(storeUnavailable(new StoreUnavailableError('down')).body as string)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Service unavailable: down', data: { retryAfterSeconds: 5 } } });
  });

  it('retryAfterOf recognises only a -32603 whose data carries a finite retryAfterSeconds', () => {
    expect(retryAfterOf({ code: -32603, data: { retryAfterSeconds: 4 } })).toBe('4');
    expect(retryAfterOf({ code: -32603, data: { retryAfterSeconds: 0 } })).toBe('1');
    expect(retryAfterOf({ code: -32603 })).toBeUndefined();
    expect(retryAfterOf({ code: -32603, data: { retryAfterSeconds: '4' } })).toBeUndefined();
    expect(retryAfterOf({ code: -32603, data: { retryAfterSeconds: Number.POSITIVE_INFINITY } })).toBeUndefined();
    expect(retryAfterOf({ code: -32602, data: { retryAfterSeconds: 4 } })).toBeUndefined();
    expect(retryAfterOf({ code: -32603, data: null })).toBeUndefined();
  });
});

const server = useRedis();
let listener: McpHttpListener;
let state: RedisState;
// Its own client: useRedis closes the ones connectClient makes after every test.
let client: ReturnType<typeof createClient>;
const logged: string[] = [];

beforeAll(async () => {
  client = createClient({ url: server().url, socket: { reconnectStrategy: () => 50, connectTimeout: 1_000 } });
  client.on('error', () => undefined);
  await client.connect();
  const prefix = freshPrefix();
  state = await createRedisState({ client, stateKeys: ['outage-test-key-outage-test-key-0123'], prefix, ...OPTIONS });
  const logger: Logger = { error: (message: string) => logged.push(message) };
  const mcp = new McpServer({ name: 'outage', version: '1.0.0', logger, ...state.server });
  mcp.tool('echo', { input: { type: 'object', properties: {} }, task: 'optional' }, () => 'echoed');
  listener = await listen(mcp, { port: 0, keepAliveMs: 0, ...state.http });
});

afterAll(async () => {
  if (!server().running) await server().start();
  await listener?.close({ graceMs: 0 });
  await state?.close();
  await client?.close().catch(() => undefined);
});

const task = (id: number) => modernRequest(listener.url, id, 'tools/call', { name: 'echo', arguments: {} }, { capabilities: WITH_TASKS });
const taskGet = (id: number, taskId: string) => modernRequest(listener.url, id, 'tasks/get', { taskId }, { capabilities: WITH_TASKS, headers: { 'mcp-name': taskId } });
const plainCall = (id: number) => modernRequest(listener.url, id, 'tools/call', { name: 'echo', arguments: {} }, { capabilities: {} });

async function legacy(body: Json, session?: string): Promise<{ status: number; headers: Headers; body: Json }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LEGACY };
  if (session !== undefined) headers['mcp-session-id'] = session;
  const response = await fetch(listener.url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Json) };
}

const initialize = (id: number) => legacy({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'outage', version: '1.0.0' } } });

/** `id` is null where the engine refuses before it reads the body (a session it cannot load, a session it cannot open). */
function expect503(answer: { status: number; headers: Headers; messages?: unknown[]; body?: Json }, id: number | null, cause: string): void {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('3');
  expect(answer.body ?? answer.messages?.[0]).toEqual({ jsonrpc: '2.0', id, error: { code: -32603, message: `Service unavailable: Shared state is unavailable: Redis ${cause}; retry in 3 s`, data: { retryAfterSeconds: 3 } } });
}

describe('one server on a Redis that hangs, then stops, then returns', () => {
  let session: string;
  let taskId: string;

  it('with Redis up: a legacy session and a task are served', async () => {
    const opened = await initialize(0);
    expect(opened.status).toBe(200);
    session = opened.headers.get('mcp-session-id')!;
    const created = await task(1);
    expect(created.status).toBe(200);
    taskId = ((created.messages[0] as Json)['result'] as Json)['taskId'] as string;
    await eventually(async () => (((await taskGet(2, taskId)).messages[0] as Json)['result'] as Json)['status'] === 'completed', { message: 'the task to complete' });
  });

  it('frozen: commands time out after commandTimeoutMs, so the requests that need Redis get 503 instead of hanging', async () => {
    server().freeze();
    try {
      expect503(await legacy({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, session), null, 'did not answer EVALSHA within 300 ms');
      expect503(await task(4), 4, 'did not answer EVALSHA within 300 ms');
      expect503(await taskGet(5, taskId), 5, 'did not answer EVALSHA within 300 ms');
      // A 2026-07-28 request that needs nothing shared is served meanwhile.
      const served = await plainCall(6);
      expect(served.status).toBe(200);
      expect(served.messages[0]).toMatchObject({ id: 6, result: { content: [{ type: 'text', text: 'echoed' }] } });
    } finally {
      server().thaw();
    }
    // The session outlived the hang.
    expect((await legacy({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, session)).status).toBe(200);
  });

  it('stopped: 503 with Retry-After for the session, initialize and tasks; 2026-07-28 tools/list and tools/call served; nothing logged per request', async () => {
    logged.length = 0;
    await server().stop();
    await eventually(async () => (await legacy({ jsonrpc: '2.0', id: 8, method: 'tools/list' }, session)).status === 503, { message: 'the client to notice the outage' });
    expect503(await legacy({ jsonrpc: '2.0', id: 9, method: 'tools/list' }, session), null, 'is not connected');
    const opened = await initialize(10);
    expect503(opened, null, 'is not connected');
    expect(opened.headers.get('mcp-session-id')).toBeNull();
    expect503(await task(11), 11, 'is not connected');
    expect503(await taskGet(12, taskId), 12, 'is not connected');
    const listed = await modernRequest(listener.url, 13, 'tools/list', {}, { capabilities: {} });
    expect(listed.status).toBe(200);
    expect((((listed.messages[0] as Json)['result'] as Json)['tools'] as { name: string }[]).map((t) => t.name)).toEqual(['echo']);
    expect((await plainCall(14)).status).toBe(200);
    // The client was told; an outage is not a server bug to log at every request.
    expect(logged).toEqual([]);
  });

  it('back: the same server reconnects by itself; a new session and a new task work', async () => {
    await server().start();
    let opened: Awaited<ReturnType<typeof initialize>> | undefined;
    await eventually(async () => (opened = await initialize(15)).status === 200, { message: 'initialize to succeed again', deadlineMs: 15_000, everyMs: 50 });
    const fresh = opened!.headers.get('mcp-session-id')!;
    expect((await legacy({ jsonrpc: '2.0', method: 'notifications/initialized' }, fresh)).status).toBe(202);
    const listed = await legacy({ jsonrpc: '2.0', id: 17, method: 'tools/list' }, fresh);
    expect(listed.status).toBe(200);
    // Redis came back empty (no persistence): the old session is gone and the client is told to start over.
    const old = await legacy({ jsonrpc: '2.0', id: 18, method: 'tools/list' }, session);
    expect(old.status).toBe(404);
    const created = await task(19);
    expect(created.status).toBe(200);
    expect(((created.messages[0] as Json)['result'] as Json)['resultType']).toBe('task');
  });
});
