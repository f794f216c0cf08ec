/**
 * A legacy session's upstream session is closed when the session ends (McpProvider.sessionClosed).
 * A request of that session still on its way to the proxy then (a middleware awaiting, a DELETE
 * meanwhile) must not open a new one: nothing would ever close it (for a stdio upstream: a process
 * left running until the proxy closes).
 */
import { afterEach, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen } from '../../src/adapters/node.js';
import { createProxy } from '../../src/gateway.js';
import { LEGACY } from '../support/revisions.js';
import { initializeBody, post, rpc, sessionHeaders } from '../transports/http/support.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

/** A legacy upstream that counts the sessions opened on it and the calls and subscriptions it got. */
async function upstream(): Promise<{ url: string; seen: string[] }> {
  const server = new McpServer({ name: 'up', version: '1.0.0', protocolVersions: [LEGACY] });
  server.tool('echo', { description: 'echo' }, () => 'echo');
  server.resource('note://a', { name: 'a' }, () => 'A');
  const seen: string[] = [];
  server.use(async (ctx, next) => {
    seen.push(ctx.method);
    return next();
  });
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  return { url: listener.url, seen };
}

it.each([
  ['tools/call', rpc(1, 'tools/call', { name: 'up_echo', arguments: {} })],
  ['resources/subscribe', rpc(1, 'resources/subscribe', { uri: 'up+note://a' })],
] as const)('a %s held up until its session ended opens no upstream session', async (method, request) => {
  const up = await upstream();
  const proxy = createProxy({ url: up.url }, { name: 'up' });
  cleanup.push(() => proxy.close());
  await proxy.ready(); // the lists are cached: the request goes straight to its session's link
  const opened = up.seen.filter((m) => m === 'initialize').length;

  const server = new McpServer({ name: 'gw', version: '1.0.0', protocolVersions: [LEGACY] });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  server.use(async (ctx, next) => {
    if (ctx.method === method) {
      entered();
      await gate; // an authorization check, a rate limiter: anything a middleware awaits
    }
    return next();
  });
  server.mount(proxy, { namespace: 'up' });
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());

  const init = await post(listener.url, initializeBody(0, LEGACY));
  const session = init.headers.get('mcp-session-id')!;
  await init.text();
  await (await post(listener.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(session))).text();
  const answered = post(listener.url, request, sessionHeaders(session)).then((r) => r.text(), () => '');
  await inside;
  await (await fetch(listener.url, { method: 'DELETE', headers: sessionHeaders(session) })).text(); // the session ends: its (unopened) link with it
  release();
  await answered;

  expect(up.seen.filter((m) => m === 'initialize').length).toBe(opened);
  expect(up.seen).not.toContain(method);
});
