/**
 * A proxy's upstream session lives as long as the downstream session it serves, however the proxy
 * is put on a server: createGateway, `server.mount()`/`provide()` alone, behind a transform or tool
 * search, or inside a child server that is itself mounted. The server tells every provider through
 * `McpProvider.sessionClosed`; each wrapper passes it on (a user who wrote `server.mount(proxy)`, as
 * docs/gateway.md shows, left one upstream session, for a stdio upstream one process, per ended session).
 */
import { afterEach, expect, it } from 'vitest';
import { McpServer, transformProvider, toolSearchProvider } from '../../src/index.js';
import { listen } from '../../src/adapters/node.js';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { createGateway, createProxy } from '../../src/gateway.js';
import { eventually } from '../support/eventually.js';
import { countingUpstream } from './counting-upstream.js';
import { LEGACY } from '../support/revisions.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

const upstream = (): ReturnType<typeof countingUpstream> => countingUpstream(cleanup);

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

it('server.mount(createProxy(…)) alone closes a downstream legacy session\'s upstream session when it ends', async () => {
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

it.each([
  ['provide(transformProvider(proxy))', 'echo', undefined, (server: McpServer, proxy: ReturnType<typeof createProxy>) => server.provide(transformProvider(proxy, { label: 'renamed' }))],
  ['mount(toolSearchProvider(proxy))', 'up_call_tool', { name: 'echo' }, (server: McpServer, proxy: ReturnType<typeof createProxy>) => server.mount(toolSearchProvider(proxy), { namespace: 'up' })],
  [
    'a child server that mounts the proxy, mounted in turn',
    'up_echo',
    undefined,
    (server: McpServer, proxy: ReturnType<typeof createProxy>) => {
      const child = new McpServer({ name: 'child', version: '1.0.0' });
      child.provide(proxy);
      return server.mount(child, { namespace: 'up' });
    },
  ],
] as const)('%s: the upstream session closes with the downstream one', async (_, tool, args, put) => {
  const up = await upstream();
  const server = new McpServer({ name: 'mine', version: '1.0.0' });
  const proxy = createProxy({ url: up.url }, { name: 'up' });
  cleanup.push(() => proxy.close());
  put(server, proxy);
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  const client = new Client({ protocolVersion: LEGACY });
  await client.connect(new StreamableHttpTransport(listener.url));
  expect((await client.callTool(tool, args)).content).toEqual([{ type: 'text', text: 'echo' }]); // the upstream session is open now
  await client.close();
  await eventually(() => up.closed() === 1, { deadlineMs: 3000, message: 'the upstream session closed with the downstream one' });
});

it('gateway.close() resolves once the upstream sessions of the downstream sessions it ended are closed', async () => {
  const up = await upstream();
  const order: string[] = [];
  // The session's upstream DELETE is answered late: close() must wait for it, not only for the links still in the pool.
  const late = (input: string | URL, init: RequestInit): Promise<Response> =>
    init.method !== 'DELETE' ? fetch(input, init) : new Promise((resolve) => setTimeout(resolve, 50)).then(() => fetch(input, init)).then((response) => (order.push('upstream session closed'), response));
  const gateway = createGateway(
    { mcpServers: { up: { url: up.url } } },
    { proxy: { transport: (owner) => new StreamableHttpTransport(up.url, owner.sessionId === undefined ? {} : { fetch: late }) } },
  );
  const listener = await listen(gateway.server, { port: 0 });
  cleanup.push(() => listener.close());
  const client = new Client({ protocolVersion: LEGACY });
  await client.connect(new StreamableHttpTransport(listener.url));
  cleanup.push(() => client.close());
  expect((await client.callTool('up_echo')).content).toEqual([{ type: 'text', text: 'echo' }]);
  await gateway.close(); // stops the server: the downstream session ends, and its upstream session with it
  order.push('gateway closed');
  expect(order).toEqual(['upstream session closed', 'gateway closed']);
});
