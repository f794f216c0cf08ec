/**
 * KNOWN FAILING (newcomer review, left for the lead): a proxy mounted with `server.mount()` is not
 * told when a downstream legacy session ends, so that session's upstream session (a stdio
 * upstream: its process) stays open until maxLinks evicts it. `createGateway` wires
 * `server.onSessionClosed` to its proxies itself, and examples/gateway/server.js does it by hand,
 * but docs/gateway.md's "In code" section showed `server.mount(proxy)` alone, which is what a
 * user writes. The fix: let a provider declare `sessionClosed(sessionId)` (McpProxy has it) and
 * have `provide()`/`mount()` (and the transforms that wrap providers) call it when a session on the
 * serving server closes; createGateway's own listener then goes.
 */
import { afterEach, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen } from '../../src/adapters/node.js';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { createGateway, createProxy } from '../../src/gateway.js';
import { eventually } from '../support/eventually.js';
import { LEGACY } from '../support/revisions.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

/** An HTTP upstream that counts the sessions that ended on it. */
async function upstream(): Promise<{ url: string; closed: () => number }> {
  const server = new McpServer({ name: 'up', version: '1.0.0', protocolVersions: [LEGACY] }); // legacy: an upstream session to end
  server.tool('echo', { description: 'echo' }, () => 'echo');
  let closed = 0;
  server.onSessionClosed(() => void closed++);
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  return { url: listener.url, closed: () => closed };
}

async function oneLegacySession(url: string): Promise<void> {
  const client = new Client({ protocolVersion: LEGACY });
  await client.connect(new StreamableHttpTransport(url));
  expect((await client.callTool('up_echo')).content).toEqual([{ type: 'text', text: 'echo' }]);
  await client.close(); // DELETE: the downstream session ends
}

it('createGateway: a downstream legacy session that ends closes its upstream session (the reference)', async () => {
  const up = await upstream();
  const gateway = createGateway({ mcpServers: { up: { url: up.url } } });
  cleanup.push(() => gateway.close());
  const listener = await listen(gateway.server, { port: 0 });
  cleanup.push(() => listener.close());
  await oneLegacySession(listener.url);
  await eventually(() => up.closed() === 1, { message: 'the upstream session closed' });
});

it('KNOWN FAILING: server.mount(createProxy(…)) alone closes a downstream legacy session\'s upstream session when it ends', async () => {
  const up = await upstream();
  const server = new McpServer({ name: 'mine', version: '1.0.0' });
  const proxy = createProxy({ url: up.url }, { name: 'up' });
  cleanup.push(() => proxy.close());
  server.mount(proxy, { namespace: 'up' });
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  await oneLegacySession(listener.url);
  await eventually(() => up.closed() === 1, { deadlineMs: 3000, message: 'the upstream session closed with the downstream one' });
});
