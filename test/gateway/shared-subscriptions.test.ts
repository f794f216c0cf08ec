/**
 * `spawn: "shared"`: one upstream process, so one upstream subscription per URI for every
 * downstream session subscribed to it. It is the last holder's to end: one client's
 * resources/unsubscribe (or one it never subscribed) must not stop another's updates, and a
 * session that ends lets go of what it held.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cleanupAfterEach, serveHttp } from '../support/cleanup.js';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { createGateway, type McpGateway } from '../../src/gateway.js';
import { eventually } from '../support/eventually.js';
import { LEGACY } from '../support/revisions.js';

const EVERYTHING = join(fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url)), 'server-everything/dist/index.js');
const URI = 'up+demo://resource/dynamic/text/1';

const cleanup = cleanupAfterEach();

async function setUp(): Promise<{ gateway: McpGateway; url: string }> {
  const gateway = createGateway({ mcpServers: { up: { command: process.execPath, args: [EVERYTHING, 'stdio'], spawn: 'shared' } } }, { proxy: { onStderr: () => undefined } });
  cleanup.push(() => gateway.close());
  return { gateway, url: (await serveHttp(cleanup, gateway.server)).url };
}

async function downstream(url: string): Promise<{ client: Client; updates: string[] }> {
  const client = new Client({ protocolVersion: LEGACY });
  await client.connect(new StreamableHttpTransport(url));
  cleanup.push(() => client.close());
  const updates: string[] = [];
  client.on('notifications/resources/updated', (params) => void updates.push(String(params['uri'])));
  return { client, updates };
}

const upstreamUnsubscribes = (gateway: McpGateway): number => gateway.proxies.get('up')!.requests['resources/unsubscribe'] ?? 0;

it('one session\'s unsubscribe, or one for a URI it never subscribed, leaves another session\'s updates coming', async () => {
  const { gateway, url } = await setUp();
  const [alice, bob, mallory] = [await downstream(url), await downstream(url), await downstream(url)];
  await alice.client.subscribeResource(URI);
  await bob.client.subscribeResource(URI);
  await mallory.client.unsubscribeResource(URI); // never subscribed
  await alice.client.unsubscribeResource(URI);
  await eventually(async () => {
    // server-everything's tool sends resources/updated for every URI its (one) process is subscribed to.
    await bob.client.callTool('up_toggle-subscriber-updates', {});
    return bob.updates.length > 0;
  }, { message: 'bob still gets updates after alice and mallory unsubscribed' });
  expect(new Set(bob.updates)).toEqual(new Set([URI]));
  expect(upstreamUnsubscribes(gateway)).toBe(0);
  await bob.client.unsubscribeResource(URI); // the last holder: now the upstream is told
  await eventually(() => upstreamUnsubscribes(gateway) === 1, { message: 'the last holder\'s unsubscribe went upstream' });
}, 30_000);

it('a session that ends lets go of its subscriptions on the shared process', async () => {
  const { gateway, url } = await setUp();
  const alice = await downstream(url);
  await alice.client.subscribeResource(URI);
  await alice.client.close(); // DELETE: the session ends without unsubscribing
  await eventually(() => upstreamUnsubscribes(gateway) === 1, { message: 'the ended session\'s subscription was ended upstream' });
}, 30_000);
