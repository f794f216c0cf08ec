/**
 * Upstreams over HTTP that nobody here wrote, behind the gateway: server-everything in its
 * Streamable HTTP mode (a stateful legacy server) and a server built with the official SDK v2
 * (@modelcontextprotocol/server, 2026-07-28: its input_required passed on); and a held upstream
 * call that the 2026-07-28 downstream does not come back for in time. Every message the gateway
 * sends the downstream client is schema-checked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpHandler, inputRequired, acceptedContent, McpServer as SdkServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '../../src/index.js';
import { listen } from '../../src/adapters/node.js';
import { McpError, type Client, type ClientOptions } from '../../src/client.js';
import { createGateway, type McpGateway } from '../../src/gateway.js';
import { eventually } from '../support/eventually.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { checkedClient, type WireFetch } from './wire-fetch.js';
import { listenFetch } from '../support/fetch-on-node.js';

const EVERYTHING = join(fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url)), 'server-everything/dist/index.js');
const LOOPBACK = fileURLToPath(new URL('./fixtures/loopback.mjs', import.meta.url));

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

type Era = typeof LEGACY | typeof MODERN;

async function gatewayOver(config: Parameters<typeof createGateway>[0], proxy: object = {}): Promise<{ gateway: McpGateway; url: string }> {
  const gateway = createGateway(config, { proxy: { onStderr: () => undefined, ...proxy } });
  cleanup.push(() => gateway.close());
  expect(await gateway.ready()).toEqual([]);
  const listener = await listen(gateway.server, { port: 0 });
  cleanup.push(() => listener.close());
  return { gateway, url: listener.url };
}

const downstream = (url: string, version: Era, options: ClientOptions = {}): Promise<{ client: Client; wire: WireFetch }> => checkedClient(url, version, cleanup, options);

const textOf = (result: { content?: unknown }): string => ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

/** server-everything's Streamable HTTP mode, kept on 127.0.0.1 by the preload; resolves its URL. */
async function everythingOverHttp(): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, ['--import', LOOPBACK, EVERYTHING, 'streamableHttp'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PORT: '0' } });
  cleanup.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /LOOPBACK_PORT (\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${text.slice(-500)}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

describe('server-everything over Streamable HTTP behind the gateway', () => {
  it.each([LEGACY, MODERN] as const)('%s downstream: echo, progress, sampling and elicitation relayed', async (version) => {
    const { url } = await gatewayOver({ mcpServers: { everything: { url: await everythingOverHttp() } } });
    const { client, wire } = await downstream(url, version, {
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'sampled downstream' }, model: 'm' }),
      elicitation: () => ({ action: 'decline' }),
    });
    expect(textOf(await client.callTool('everything_echo', { message: 'hi' }))).toBe('Echo: hi');
    const progress: number[] = [];
    const long = await client.callTool('everything_trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(textOf(long)).toContain('completed');
    expect(progress).toEqual([1, 2, 3]);
    expect(textOf(await client.callTool('everything_trigger-sampling-request', { prompt: 'x' }))).toContain('sampled downstream');
    expect(textOf(await client.callTool('everything_trigger-elicitation-request', {}))).toMatch(/decline/i);
    expect(wire.problems).toEqual([]);
  }, 60_000);
});

function sdkV2Factory(): SdkServer {
  const mcp = new SdkServer({ name: 'sdk-v2-server', version: '2.4.0' });
  mcp.registerTool('add', { description: 'a + b', inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  mcp.registerTool('confirm', { description: 'asks first', inputSchema: z.object({ what: z.string() }) }, ({ what }, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'ok');
    if (answer === undefined) return inputRequired({ inputRequests: { ok: inputRequired.elicit({ message: `Do ${what}?`, requestedSchema: z.object({ ok: z.boolean() }) }) } });
    return { content: [{ type: 'text', text: `confirmed ${what}: ${JSON.stringify(answer)}` }] };
  });
  return mcp;
}

async function sdkV2Upstream(): Promise<string> {
  const handler = createMcpHandler(sdkV2Factory);
  const server = await listenFetch(handler);
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('an official SDK v2 server (2026-07-28) behind the gateway', () => {
  it.each([LEGACY, MODERN] as const)('%s downstream: calls, and its input_required is answered by the downstream client', async (version) => {
    const { gateway, url } = await gatewayOver({ mcpServers: { v2: { url: await sdkV2Upstream() } } });
    expect(gateway.proxies.get('v2')!.requests['initialize' as never]).toBeUndefined();
    const asked: string[] = [];
    const { client, wire } = await downstream(url, version, { elicitation: (params) => (asked.push(params.message), { action: 'accept', content: { ok: true } }) });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['v2_add', 'v2_confirm']);
    expect(textOf(await client.callTool('v2_add', { a: 2, b: 3 }))).toBe('5');
    expect(textOf(await client.callTool('v2_confirm', { what: 'deploy' }))).toBe('confirmed deploy: {"ok":true}');
    expect(asked).toEqual(['Do deploy?']);
    expect(wire.problems).toEqual([]);
  }, 30_000);
});

describe('a held upstream call', () => {
  it('expires when the 2026-07-28 downstream does not come back in time: the upstream call is cancelled, the late retry refused with -32602', async () => {
    let cancelled = 0;
    const upstreamServer = new McpServer({ name: 'asks', version: '1.0.0', protocolVersions: [LEGACY] });
    upstreamServer.tool('confirm', { description: 'asks, then answers' }, async (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => (cancelled += 1));
      const answer = await ctx.elicit({ message: 'sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
      return `answered ${answer.action}`;
    });
    const upstream = await listen(upstreamServer, { port: 0 });
    cleanup.push(() => upstream.close());
    const { url } = await gatewayOver({ url: upstream.url }, { holdTimeoutMs: 200 });
    // The client answers only once the gateway gave up the held call: its retry comes too late.
    const { client, wire } = await downstream(url, MODERN, {
      elicitation: async () => {
        await eventually(() => cancelled === 1);
        return { action: 'accept', content: { ok: true } };
      },
    });
    const error = await client.callTool('confirm', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toMatch(/no longer held by this gateway/);
    // The same call sent again, answered in time, completes.
    cancelled = 0;
    const { client: prompt } = await downstream(url, MODERN, { elicitation: () => ({ action: 'accept', content: { ok: true } }) });
    expect(textOf(await prompt.callTool('confirm', {}))).toBe('answered accept');
    expect(wire.problems).toEqual([]);
  }, 30_000);
});
