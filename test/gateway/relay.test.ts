/**
 * What the gateway relays that no single call carries, over the wire, with every message the
 * gateway sends a downstream client validated against that revision's schema: list_changed (to
 * legacy sessions and to `subscriptions/listen`), resources/updated with the namespaced URI, and
 * roots asked by an upstream answered by the downstream session whose call asked. Upstreams:
 * mcpkit servers over HTTP in both eras, server-everything over stdio.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, serveHttp } from '../support/cleanup.js';
import { McpServer } from '../../src/index.js';
import type { Client, ClientOptions } from '../../src/client.js';
import { createGateway, type McpGateway } from '../../src/gateway.js';
import { eventually } from '../support/eventually.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { checkedClient, type WireFetch } from './wire-fetch.js';

const EVERYTHING = join(fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url)), 'server-everything/dist/index.js');

const cleanup = cleanupAfterEach();

type Era = typeof LEGACY | typeof MODERN;

/** An mcpkit upstream whose lists change on request and whose tool asks for the client's roots. */
function changingUpstream(era: Era): McpServer {
  const server = new McpServer({ name: 'changing', version: '1.0.0', ...(era === LEGACY ? { protocolVersions: [LEGACY] as const } : {}) });
  let added = 0;
  server.tool('grow', { description: 'adds a tool (tools/list_changed)' }, () => {
    added += 1;
    server.tool(`extra${added}`, { description: 'added later' }, () => `extra ${added}`);
    return `added extra${added}`;
  });
  server.tool('roots', { description: 'the roots the client declared' }, async (_args, ctx) => {
    try {
      return JSON.stringify((await ctx.listRoots()).roots.map((root) => root.uri));
    } catch (error) {
      return `no roots: ${(error as Error).message}`;
    }
  });
  server.resource('note://a', { name: 'a', description: 'note a' }, () => 'A');
  return server;
}

async function gatewayOver(config: Parameters<typeof createGateway>[0]): Promise<{ gateway: McpGateway; url: string }> {
  const gateway = createGateway(config, { proxy: { onStderr: () => undefined } });
  cleanup.push(() => gateway.close());
  expect(await gateway.ready()).toEqual([]);
  return { gateway, url: (await serveHttp(cleanup, gateway.server)).url };
}

const downstream = (url: string, version: Era, options: ClientOptions = {}): Promise<{ client: Client; wire: WireFetch }> => checkedClient(url, version, cleanup, options);

const textOf = (result: { content?: unknown }): string => ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');
const names = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name);

describe.each([LEGACY, MODERN] as const)('upstream %s over HTTP', (upstreamEra) => {
  it('a legacy downstream session hears list_changed when the upstream list changes, and the next list shows the new tool', async () => {
    const upstream = await serveHttp(cleanup, changingUpstream(upstreamEra));
    const { url } = await gatewayOver({ mcpServers: { up: { url: upstream.url } } });
    const { client, wire } = await downstream(url, LEGACY);
    const changed: string[] = [];
    client.on('notifications/tools/list_changed', () => changed.push('tools'));
    expect(await names(client)).not.toContain('up_extra1');
    expect(textOf(await client.callTool('up_grow', {}))).toBe('added extra1');
    await eventually(() => changed.length > 0);
    await eventually(async () => (await names(client)).includes('up_extra1'));
    expect(textOf(await client.callTool('up_extra1', {}))).toBe('extra 1');
    expect(wire.problems).toEqual([]);
  });

  it('a 2026-07-28 downstream hears the upstream\'s list_changed on subscriptions/listen', async () => {
    const upstream = await serveHttp(cleanup, changingUpstream(upstreamEra));
    const { url } = await gatewayOver({ mcpServers: { up: { url: upstream.url } } });
    const { client, wire } = await downstream(url, MODERN);
    const heard: string[] = [];
    client.on('notifications/tools/list_changed', () => heard.push('tools'));
    const controller = new AbortController();
    const listening = client.listen({ toolsListChanged: true }, { signal: controller.signal });
    cleanup.push(async () => (controller.abort(), await listening));
    // A change before the stream is open reaches nobody: grow until one is heard.
    await eventually(async () => {
      await client.callTool('up_grow', {});
      return heard.length > 0;
    });
    expect(await names(client)).toContain('up_extra1');
    expect(wire.problems).toEqual([]);
  });

  it('roots: the upstream that asks gets the roots of the downstream client whose call asked, per client', async () => {
    const upstream = await serveHttp(cleanup, changingUpstream(upstreamEra));
    const { url } = await gatewayOver({ mcpServers: { up: { url: upstream.url } } });
    const alice = await downstream(url, LEGACY, { roots: [{ uri: 'file:///alice', name: 'alice' }] });
    const bob = await downstream(url, MODERN, { roots: [{ uri: 'file:///bob', name: 'bob' }] });
    const carol = await downstream(url, LEGACY);
    const [a, b, c] = await Promise.all([alice.client.callTool('up_roots', {}), bob.client.callTool('up_roots', {}), carol.client.callTool('up_roots', {}).catch((e: unknown) => e)]);
    expect(textOf(a)).toBe('["file:///alice"]');
    expect(textOf(b)).toBe('["file:///bob"]');
    // A downstream client without the roots capability never gets someone else's roots. A legacy
    // upstream's request gets the error (its tool goes on); a 2026-07-28 upstream asked through
    // input_required, which has no error answer, so the downstream call fails with it.
    if (upstreamEra === LEGACY) expect(textOf(c as { content?: unknown })).toMatch(/^no roots: .*capability "roots"/);
    else expect((c as Error).message).toMatch(/client capability "roots"/);
    for (const { wire } of [alice, bob, carol]) expect(wire.problems).toEqual([]);
  });
});

describe('server-everything over stdio: roots and resource updates', () => {
  it.each([LEGACY, MODERN] as const)('%s downstream: get-roots-list answers with this client\'s roots', async (version) => {
    const { url } = await gatewayOver({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
    const { client, wire } = await downstream(url, version, { roots: [{ uri: `file:///root-of-${version}`, name: 'mine' }] });
    const result = await client.callTool('everything_get-roots-list', {});
    expect(textOf(result)).toContain(`file:///root-of-${version}`);
    expect(wire.problems).toEqual([]);
  }, 30_000);
});
