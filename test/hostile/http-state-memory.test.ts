/**
 * Memory, measured after GC: client-sized messages recorded for resumption do
 * not outlive their session, and while sessions live the event store holds no
 * more than its byte budget. The server runs in a child process (built
 * package, `--expose-gc`) on 127.0.0.1 and reports `heapUsed` after `gc()`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { initializeBody, post, rpc, sessionHeaders } from '../transports/http/support.js';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const MB = 1024 * 1024;

// The server: one tool that logs a client-chosen text `times` times (each log is recorded for resumption).
const SERVER = `
import { createServer } from 'node:http';
const { McpServer } = await import(process.env.DIST + '/index.js');
const { createNodeHandler, MemoryEventStore } = await import(process.env.DIST + '/http.js');
const server = new McpServer({ name: 'memory', version: '1.0.0' });
server.tool('shout', { input: { type: 'object', properties: { text: { type: 'string' }, times: { type: 'number' } } } }, async ({ text, times }, ctx) => {
  for (let i = 0; i < times; i++) await ctx.log('info', text);
  return 'done';
});
const { store, ...options } = JSON.parse(process.env.OPTIONS);
const handler = createNodeHandler(server, { ...options, keepAliveMs: 0, sessions: { eventStore: new MemoryEventStore(store) } });
const http = createServer((req, res) => {
  if (req.url === '/heap') {
    for (let i = 0; i < 4; i++) globalThis.gc();
    res.end(String(process.memoryUsage().heapUsed));
    return;
  }
  handler(req, res);
});
http.listen(0, '127.0.0.1', () => console.log(http.address().port));
`;

let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

async function startChild(options: Record<string, unknown>): Promise<string> {
  child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', SERVER], {
    env: { ...process.env, DIST, OPTIONS: JSON.stringify(options) },
  });
  const port = await new Promise<string>((resolve, reject) => {
    child!.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child!.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}`;
}

async function heap(base: string): Promise<number> {
  return Number(await (await fetch(`${base}/heap`)).text());
}

/** Opens a session and has it record `times` logs of `size` bytes; answers the session id. */
async function shoutingSession(url: string, size: number, times: number): Promise<string> {
  const init = await post(url, initializeBody());
  const id = init.headers.get('mcp-session-id')!;
  await init.text();
  await (await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(id))).text();
  const call = await post(url, rpc(1, 'tools/call', { name: 'shout', arguments: { text: 'm'.repeat(size), times } }), sessionHeaders(id));
  expect(call.headers.get('content-type')).toBe('text/event-stream');
  expect(await call.text()).toContain('"done"');
  return id;
}

const SESSIONS = 30;

describe('event store memory after GC', () => {
  it('returns to the baseline once the sessions that filled it have ended', async () => {
    const base = await startChild({ limits: { maxSessionsPerClient: SESSIONS }, store: {} });
    const url = `${base}/mcp`;
    await shoutingSession(url, 1_000, 1); // warm up code paths
    const before = await heap(base);
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS - 1; i++) ids.push(await shoutingSession(url, 200_000, 5)); // ~1 MB each, ~29 MB in all
    const filled = await heap(base);
    expect(filled - before).toBeGreaterThan(10 * MB); // recorded while the sessions live
    for (const id of ids) expect((await fetch(url, { method: 'DELETE', headers: sessionHeaders(id) })).status).toBe(204);
    const after = await heap(base);
    expect(after - before).toBeLessThan(4 * MB);
  });

  it('holds no more than maxBytes while the sessions live', async () => {
    const base = await startChild({ limits: { maxSessionsPerClient: SESSIONS }, store: { maxBytes: 6 * MB } });
    const url = `${base}/mcp`;
    await shoutingSession(url, 1_000, 1);
    const before = await heap(base);
    for (let i = 0; i < SESSIONS - 1; i++) await shoutingSession(url, 200_000, 5);
    const after = await heap(base);
    expect(after - before).toBeLessThan(6 * MB + 4 * MB);
  });
});
