/**
 * Where `setTimeout`/`setInterval` return a number (Deno, browsers, Workers without nodejs_compat or at
 * compatibility dates before 2026-02-15), every timer site still works: the first legacy `initialize`
 * answered -32603 there (MemorySessionStore armed its sweep with `.unref()`), and a modern call
 * reporting progress over SSE hung (the keep-alive interval). The runtime is stood in for by timers
 * that return numbers; the handler is the real fetch handler, called as a Worker calls it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpServer } from '../../src/index.js';
import { createFetchHandler, MemorySessionStore } from '../../src/http.js';
import { unrefTimer } from '../../src/util/timers.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { eventually } from '../support/eventually.js';

const real = { setTimeout, clearTimeout, setInterval, clearInterval };
const pending = new Map<number, ReturnType<typeof setTimeout>>();
let created = 0;

/** Web-standard timers: a positive integer id, nothing to call on it. */
function installWebTimers(): void {
  let next = 1;
  const start = (repeat: boolean) => (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]): number => {
    const id = next++;
    created++;
    const run = (): void => {
      if (!repeat) pending.delete(id);
      callback(...args);
    };
    pending.set(id, repeat ? real.setInterval(run, ms) : real.setTimeout(run, ms));
    return id;
  };
  const stop = (id: unknown): void => {
    if (typeof id !== 'number') return;
    const handle = pending.get(id);
    if (handle !== undefined) real.clearInterval(handle);
    pending.delete(id);
  };
  vi.stubGlobal('setTimeout', start(false));
  vi.stubGlobal('setInterval', start(true));
  vi.stubGlobal('clearTimeout', stop);
  vi.stubGlobal('clearInterval', stop);
}

beforeAll(installWebTimers);
afterAll(() => {
  vi.unstubAllGlobals();
  for (const handle of pending.values()) real.clearInterval(handle);
});

const ACCEPT = 'application/json, text/event-stream';
const ORIGIN = 'http://127.0.0.1:8787';

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
}

function build(): McpServer {
  const server = new McpServer({ name: 'web-timers', version: '1.0.0' });
  server.tool('steps', { input: { type: 'object' } }, async (_args, ctx) => {
    await ctx.progress(1, 2);
    await ctx.progress(2, 2);
    return 'stepped';
  });
  return server;
}

describe('unrefTimer', () => {
  it('returns what it is given and calls unref only where there is one', () => {
    expect(unrefTimer(7)).toBe(7);
    const noUnref = { hasRef: () => true };
    expect(unrefTimer(noUnref)).toBe(noUnref);
    const called: unknown[] = [];
    const timer = { unref(this: unknown) { called.push(this); } };
    expect(unrefTimer(timer)).toBe(timer);
    expect(called).toEqual([timer]);
    expect(unrefTimer({ unref: 'not a function' })).toEqual({ unref: 'not a function' });
    const node = real.setTimeout(() => undefined, 1_000);
    expect(unrefTimer(node).hasRef()).toBe(false);
    real.clearTimeout(node);
  });
});

/** Every `.unref(` in src/ outside the helper, as `file: line`. */
function unrefCalls(): string[] {
  const src = new URL('../../src/', import.meta.url).pathname;
  const found: string[] = [];
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = relative(src, join(entry.parentPath, entry.name));
    if (file === join('util', 'timers.ts')) continue;
    readFileSync(join(src, file), 'utf8').split('\n').forEach((line, i) => {
      if (/\.unref\??\.?\(/.test(line)) found.push(`${file}:${i + 1}`);
    });
  }
  return found;
}

describe('every timer site', () => {
  it('goes through unrefTimer: the only direct unref() calls in src/ are on Node objects that are not timers', () => {
    const sites = unrefCalls().map((site) => site.replace(/:\d+$/, ''));
    // An fs.FSWatcher in the CLI, a node:http server in the OAuth loopback and an idle kept-alive
    // socket of the HTTP/1.1 client: Node only, never a timer.
    expect(sites.sort()).toEqual([join('cli', 'lifecycle.ts'), join('client', 'auth', 'loopback.ts'), join('client', 'http1.ts')]);
  });
});

describe('timer sites with web-standard timers (numbers)', () => {
  it('the stand-in returns numbers', () => {
    expect(typeof setTimeout(() => undefined, 0)).toBe('number');
  });

  it('legacy initialize answers 200 the first time, and the session serves', async () => {
    const handler = createFetchHandler(build(), { stateless: false });
    const before = created;
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const first = await handler(post(init));
    expect(first.status).toBe(200);
    const session = first.headers.get('mcp-session-id');
    expect(session).toBeTruthy();
    expect(await first.json()).toMatchObject({ id: 1, result: { protocolVersion: LEGACY } });
    expect((await handler(post(init))).status).toBe(200);
    const headers = { 'mcp-session-id': session!, 'mcp-protocol-version': LEGACY };
    const listed = await handler(post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers));
    expect(await listed.json()).toMatchObject({ result: { tools: [{ name: 'steps' }] } });
    // The sites ran on the stand-in (the session store's sweep at least).
    expect(created).toBeGreaterThan(before);
    await handler.close({ graceMs: 0 });
  });

  it('a 2026-07-28 call reports progress over SSE, with keep-alives on, and finishes', async () => {
    const handler = createFetchHandler(build(), { keepAliveMs: 5 });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
      progressToken: 'p',
    };
    const response = await handler(post(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'steps', arguments: {}, _meta: meta } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'steps' },
    ));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    const data = text.split('\n').filter((line) => line.startsWith('data:') && line.length > 6).map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
    expect(data.filter((m) => m['method'] === 'notifications/progress').map((m) => (m['params'] as { progress: number }).progress)).toEqual([1, 2]);
    expect(data.at(-1)).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'stepped' }] } });
    await handler.close({ graceMs: 0 });
  });

  it('MemorySessionStore expires idle sessions on number timers', async () => {
    const store = new MemorySessionStore<string>({ idleTimeoutMs: 5 });
    store.set('a', 'record');
    expect(store.get('a')).toBe('record');
    await eventually(() => store.get('a') === undefined);
  });
});
