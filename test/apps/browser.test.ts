import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Chromium, type CdpEvent } from './chromium.js';
import { listeningUrl } from '../support/process.js';

// The MCP Apps proof in a real browser: headless Chromium loads a host page written
// for this test, which talks to examples/apps/server.js over Streamable HTTP, renders
// the tool's ui:// view inside a sandbox proxy on another origin, and relays the
// extension's postMessage JSON-RPC. The screenshot lands in test-results/apps/.
const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = `${root}test-results/apps`;

interface LogEntry {
  dir: string;
  message: { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };
}

let example: ChildProcess;
let pages: Server;
let browser: Chromium;
let session: string;
let hostUrl: string;
/** Script contexts of every frame, by the session (page or out-of-process frame) they live in. */
const contexts = new Map<string, { session: string; id: number }>();

function startPages(): Promise<number> {
  const files: Record<string, string> = {
    '/host.html': readFileSync(new URL('./host/host.html', import.meta.url), 'utf8'),
    '/sandbox.html': readFileSync(new URL('./host/sandbox.html', import.meta.url), 'utf8'),
  };
  pages = createServer((request, response) => {
    const body = files[new URL(request.url ?? '/', 'http://x').pathname];
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' }).end(body ?? 'not found');
  });
  return new Promise((resolve) => pages.listen(0, '127.0.0.1', () => resolve((pages.address() as AddressInfo).port)));
}

function startExample(origin: string): Promise<string> {
  example = spawn(process.execPath, ['examples/apps/server.js'], { cwd: root, env: { ...process.env, PORT: '0', MCP_ALLOWED_ORIGINS: origin }, stdio: ['ignore', 'ignore', 'pipe'] });
  return listeningUrl(example);
}

async function evaluate<T>(expression: string, context?: { session: string; id: number }): Promise<T> {
  const answer = await browser.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true, ...(context !== undefined && { contextId: context.id }) }, context?.session ?? session);
  if (answer['exceptionDetails']) throw new Error(`evaluate failed: ${JSON.stringify(answer['exceptionDetails'])}`);
  return (answer['result'] as { value: T }).value;
}

/** The view's script context: the one frame whose document has the counter (it is two frames down, on an opaque origin). */
async function viewContext(): Promise<{ session: string; id: number }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const context of contexts.values()) {
      const found = await evaluate<boolean>("document.getElementById('increment') !== null", context).catch(() => false);
      if (found) return context;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the view never rendered in the sandboxed iframe');
}

beforeAll(async () => {
  const port = await startPages();
  const serverUrl = await startExample(`http://127.0.0.1:${port}`);
  // The sandbox proxy is on another origin than the host page (localhost vs 127.0.0.1), as the extension requires.
  hostUrl = `http://127.0.0.1:${port}/host.html?server=${encodeURIComponent(serverUrl)}&tool=show_counter&sandbox=${encodeURIComponent(`http://localhost:${port}/sandbox.html`)}`;
  browser = Chromium.launch();
  session = await browser.openPage();
  // Cross-origin and sandboxed frames run as their own targets: attach to them as they appear.
  const follow = async (id: string): Promise<void> => {
    await browser.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, id);
    await browser.send('Runtime.enable', {}, id);
  };
  browser.on((event: CdpEvent) => {
    const from = event.sessionId;
    if (from === undefined) return;
    if (event.method === 'Target.attachedToTarget') void follow(event.params['sessionId'] as string).catch(() => undefined);
    if (event.method === 'Runtime.executionContextCreated') {
      const id = (event.params['context'] as { id: number }).id;
      contexts.set(`${from}:${id}`, { session: from, id });
    }
    if (event.method === 'Runtime.executionContextDestroyed') contexts.delete(`${from}:${String(event.params['executionContextId'])}`);
  });
  await follow(session);
  await browser.send('Page.enable', {}, session);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  example?.kill('SIGTERM');
  await new Promise((resolve) => pages?.close(resolve));
});

describe('MCP Apps in headless Chromium', () => {
  it('renders the tool view in a sandboxed iframe, delivers the result and proxies the view\'s tool call', async () => {
    await browser.send('Page.navigate', { url: hostUrl }, session);
    await evaluate("new Promise((r) => { const t = () => (window.hostRun ? window.hostRun.then(r) : setTimeout(t, 20)); t(); })");

    // The handshake: the view initializes, the host answers, then sends the tool's input and result.
    await evaluate("waitFor('host→view', 'ui/notifications/tool-result')");
    const view = await viewContext();
    await expect.poll(() => evaluate<string>("document.getElementById('count').textContent", view)).toBe('0');

    // A click in the view: tools/call goes view → host → server and the answer comes back the same way.
    await evaluate("document.getElementById('increment').click()", view);
    await evaluate("waitFor('view→host', 'notifications/message')");
    expect(await evaluate<string>("document.getElementById('count').textContent", view)).toBe('1');
    expect(await evaluate<string>("document.getElementById('status').textContent", view)).toBe('incremented through the host');
    expect(await evaluate<string>("document.getElementById('tools').textContent")).toBe('model sees: show_counter');

    const log = await evaluate<LogEntry[]>('hostLog');
    const find = (dir: string, method: string): LogEntry => {
      const entry = log.find((e) => e.dir === dir && e.message.method === method);
      if (!entry) throw new Error(`no ${dir} ${method} in ${JSON.stringify(log.map((e) => `${e.dir} ${e.message.method ?? ''}`))}`);
      return entry;
    };
    const answerTo = (dir: string, id: number | undefined): LogEntry => log.find((e) => e.dir === dir && e.message.id === id && e.message.method === undefined)!;

    // What the server told the host: the tool's _meta.ui and the view's MIME type and _meta.ui.
    const list = answerTo('server→host', find('host→server', 'tools/list').message.id).message.result as { tools: { name: string; _meta?: unknown }[] };
    expect(list.tools.map((t) => [t.name, t._meta])).toEqual([
      ['show_counter', { ui: { resourceUri: 'ui://apps-example/counter' } }],
      ['increment_counter', { ui: { resourceUri: 'ui://apps-example/counter', visibility: ['app'] } }],
    ]);
    const read = answerTo('server→host', find('host→server', 'resources/read').message.id).message.result as { contents: Record<string, unknown>[] };
    expect(read.contents[0]).toMatchObject({ uri: 'ui://apps-example/counter', mimeType: 'text/html;profile=mcp-app', _meta: { ui: { prefersBorder: true } } });

    // The sandbox proxy handshake, then the view's own handshake.
    expect(find('sandbox→host', 'ui/notifications/sandbox-proxy-ready').message.params).toEqual({});
    expect(find('host→sandbox', 'ui/notifications/sandbox-resource-ready').message.params).toMatchObject({ html: expect.stringContaining('<button id="increment"') });
    const init = find('view→host', 'ui/initialize').message;
    expect(init.params).toEqual({ protocolVersion: '2026-01-26', appInfo: { name: 'counter-view', version: '1.0.0' }, appCapabilities: { availableDisplayModes: ['inline'] } });
    expect(answerTo('host→view', init.id).message.result).toMatchObject({ protocolVersion: '2026-01-26', hostCapabilities: { serverTools: {} } });
    find('view→host', 'ui/notifications/initialized');
    expect(find('host→view', 'ui/notifications/tool-input').message.params).toEqual({ arguments: {} });
    expect(find('host→view', 'ui/notifications/tool-result').message.params).toMatchObject({ structuredContent: { count: 0 }, content: [{ type: 'text', text: '{"count":0}' }] });

    // The view's call, as the view sent it and as the host forwarded it to the server.
    const call = find('view→host', 'tools/call').message;
    expect(call.params).toEqual({ name: 'increment_counter', arguments: { by: 1 } });
    const forwarded = log.filter((e) => e.dir === 'host→server' && e.message.method === 'tools/call').at(-1)!.message;
    expect(forwarded.params).toMatchObject({ name: 'increment_counter', arguments: { by: 1 }, _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } } });
    expect(answerTo('host→view', call.id).message.result).toMatchObject({ structuredContent: { count: 1 } });
    expect(find('view→host', 'notifications/message').message.params).toEqual({ level: 'info', logger: 'counter-view', data: 'count is 1' });

    mkdirSync(outDir, { recursive: true });
    const shot = await browser.send('Page.captureScreenshot', { format: 'png' }, session);
    const png = Buffer.from(shot['data'] as string, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    writeFileSync(`${outDir}/counter.png`, png);
  });
});
