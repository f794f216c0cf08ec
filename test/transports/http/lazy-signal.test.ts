/**
 * The request's signal follows the client's connection lazily (nothing listens until a handler reads
 * ctx.signal): a handler that reads it only after an await, even after the client left, still sees the
 * disconnect.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type McpHttpListener } from '../../../src/adapters/node.js';
import { McpServer } from '../../../src/server/server.js';
import { eventually, postHeaders, rpc } from './support.js';

let server: McpHttpListener | undefined;
let socketsClosed = 0;
afterEach(async () => {
  await server?.close({ graceMs: 0 });
  server = undefined;
});

async function start(mcp: McpServer): Promise<McpHttpListener> {
  socketsClosed = 0;
  const listener = await listen(mcp, { port: 0, stateless: true });
  // Added after node:http's own listener: when it runs, the response has seen its connection close.
  listener.server.on('connection', (socket) => socket.on('close', () => socketsClosed++));
  return listener;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function build() {
  const seen: { name: string; aborted: boolean; reason: string }[] = [];
  const started = new Set<string>();
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const mcp = new McpServer({ name: 'lazy-signal', version: '1.0.0' });
  // Reads ctx.signal for the first time once the client is gone.
  mcp.tool('reads-late', {}, async (_args, ctx) => {
    started.add('reads-late');
    await released;
    seen.push({ name: 'reads-late', aborted: ctx.signal.aborted, reason: String((ctx.signal.reason as Error | undefined)?.message) });
    return 'late';
  });
  // Reads it after a macrotask, while the client is still there, then waits for its abort.
  mcp.tool('listens-late', {}, async (_args, ctx) => {
    await tick();
    const signal = ctx.signal;
    started.add('listens-late');
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    seen.push({ name: 'listens-late', aborted: signal.aborted, reason: String((signal.reason as Error).message) });
    return 'aborted';
  });
  return { mcp, seen, started, release: () => release() };
}

async function callThenLeave(url: string, name: string, isRunning: () => boolean): Promise<void> {
  const controller = new AbortController();
  const call = fetch(url, { method: 'POST', headers: postHeaders(), body: JSON.stringify(rpc(1, 'tools/call', { name, arguments: {} })), signal: controller.signal });
  await eventually(isRunning);
  controller.abort();
  await call.catch(() => undefined);
}

describe('the request signal, created lazily', () => {
  it('a handler that reads ctx.signal only after the client disconnected sees it aborted', async () => {
    const { mcp, seen, started, release } = build();
    server = await start(mcp);
    await callThenLeave(server.url, 'reads-late', () => started.has('reads-late'));
    // The server saw the connection close before the handler looks at its signal.
    await eventually(() => socketsClosed === 1);
    release();
    await eventually(() => seen.length === 1);
    expect(seen[0]).toEqual({ name: 'reads-late', aborted: true, reason: 'client disconnected' });
  });

  it('a handler that reads ctx.signal after a macrotask is aborted when the client disconnects', async () => {
    const { mcp, seen, started } = build();
    server = await start(mcp);
    await callThenLeave(server.url, 'listens-late', () => started.has('listens-late'));
    await eventually(() => seen.length === 1);
    expect(seen[0]).toEqual({ name: 'listens-late', aborted: true, reason: 'client disconnected' });
  });
});
