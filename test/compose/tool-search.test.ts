/**
 * The tool-search transform over the wire (every message the server sends validated against
 * its revision's schema): a 1,000-tool catalogue listed as search_tools and call_tool, ranked
 * and bounded search, the real call with progress and elicitation passing through, unknown and
 * hidden names refused, bad options named; and through the gateway's config (`toolSearch`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { McpServer, RegistrationError, toolSearchProvider, transformProvider, type McpProvider, type McpTool, type RequestContext } from '../../src/index.js';
import { searchTools } from '../../src/compose/tool-search.js';
import { listen } from '../../src/adapters/node.js';
import { Client, StreamableHttpTransport, type ClientOptions } from '../../src/client.js';
import { createGateway, parseGatewayConfig } from '../../src/gateway.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { eventually } from '../support/eventually.js';
import { wireFetch, type WireFetch } from '../gateway/wire-fetch.js';

type Json = Record<string, unknown>;
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

const COLOURS = ['red', 'green', 'blue', 'amber', 'violet'];

/** A server with 1,000 tools `op_0` … `op_999`; op_500 reports progress, op_600 asks the client for input. */
function bigServer(): McpServer {
  const server = new McpServer({ name: 'big', version: '1.0.0' });
  for (let i = 0; i < 1000; i++) {
    server.tool(`op_${i}`, { description: `Paints widget number w${i} ${COLOURS[i % 5]}`, input: { type: 'object', properties: { n: { type: 'number' } } } }, async (args, ctx) => {
      if (i === 500) {
        await ctx.progress(1, 2, 'half');
        await ctx.progress(2, 2, 'done');
      }
      if (i === 600) {
        const answer = await ctx.elicit({ message: 'which shade?', requestedSchema: { type: 'object', properties: { shade: { type: 'string' } } } });
        return `shade ${String((answer.content as Json | undefined)?.['shade'])}`;
      }
      return `op_${i} painted ${JSON.stringify(args)}`;
    });
  }
  return server;
}

async function served(server: McpServer): Promise<string> {
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  return listener.url;
}

async function connect(url: string, version: string, options: ClientOptions = {}): Promise<{ client: Client; wire: WireFetch }> {
  const wire = wireFetch(version);
  const client = new Client({ protocolVersion: version as never, ...options });
  await client.connect(new StreamableHttpTransport(url, { fetch: wire.fetch }));
  cleanup.push(() => client.close());
  return { client, wire };
}

const textOf = (result: { content?: unknown }): string => ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');
const found = (result: { structuredContent?: unknown }): string[] => ((result.structuredContent as { tools: { name: string }[] }).tools).map((t) => t.name);

/** The big server's tools as a provider, op_999 hidden by an exclude, searched. */
function searched(): McpServer {
  const top = new McpServer({ name: 'top', version: '1.0.0' });
  top.provide(transformProvider(bigServer().asProvider(), { exclude: { names: ['op_999'] }, toolSearch: { maxResults: 5 } }));
  return top;
}

describe.each([LEGACY, MODERN] as const)('%s client', (version) => {
  it('lists search_tools and call_tool only; a search is ranked and bounded; call_tool makes the real call', async () => {
    const { client, wire } = await connect(await served(searched()), version);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    const exact = await client.callTool('search_tools', { query: 'w737' });
    expect(found(exact)[0]).toBe('op_737');
    const broad = await client.callTool('search_tools', { query: 'paints violet widget' });
    expect(found(broad)).toHaveLength(5);
    expect(found(broad).every((name) => Number(name.slice(3)) % 5 === 4)).toBe(true);
    const schema = (broad.structuredContent as { tools: { inputSchema: Json }[] }).tools[0]!.inputSchema;
    expect(schema).toMatchObject({ type: 'object', properties: { n: { type: 'number' } } });
    expect(textOf(await client.callTool('call_tool', { name: 'op_42', arguments: { n: 7 } }))).toBe('op_42 painted {"n":7}');
    expect(wire.problems).toEqual([]);
  });

  it('unknown and hidden names are a clear error; the hidden tool is never found', async () => {
    const { client, wire } = await connect(await served(searched()), version);
    const unknown = await client.callTool('call_tool', { name: 'op_1000' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/no tool is named "op_1000"; search_tools lists/);
    expect(found(await client.callTool('search_tools', { query: 'w999' }))).not.toContain('op_999');
    const hidden = await client.callTool('call_tool', { name: 'op_999' });
    expect(textOf(hidden)).toMatch(/no tool is named "op_999"/);
    const bad = await client.callTool('call_tool', { name: 'op_1', arguments: [1] });
    expect(textOf(bad)).toMatch(/"arguments" must be an object/);
    expect(wire.problems).toEqual([]);
  });

  it('progress and elicitation of the real tool reach the client through call_tool', async () => {
    const { client, wire } = await connect(await served(searched()), version, { elicitation: { form: () => ({ action: 'accept', content: { shade: 'dark' } }) } });
    const progress: number[] = [];
    const result = await client.callTool('call_tool', { name: 'op_500' }, { onProgress: (p) => void progress.push(p.progress) });
    expect(textOf(result)).toBe('op_500 painted {}');
    expect(progress).toEqual([1, 2]);
    expect(textOf(await client.callTool('call_tool', { name: 'op_600' }))).toBe('shade dark');
    expect(wire.problems).toEqual([]);
  });
});

describe('through the gateway: "toolSearch": true in the config', () => {
  it.each([LEGACY, MODERN] as const)('%s downstream finds and calls an upstream tool', async (version) => {
    const upstream = await served(bigServer());
    const gateway = createGateway(parseGatewayConfig({ mcpServers: { big: { url: upstream, toolSearch: true } } }));
    cleanup.push(() => gateway.close());
    expect(await gateway.ready()).toEqual([]);
    const { client, wire } = await connect(await served(gateway.server), version);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['big_search_tools', 'big_call_tool']);
    expect(found(await client.callTool('big_search_tools', { query: 'w321' }))[0]).toBe('op_321');
    const progress: number[] = [];
    expect(textOf(await client.callTool('big_call_tool', { name: 'op_500' }, { onProgress: (p) => void progress.push(p.progress) }))).toBe('op_500 painted {}');
    expect(progress).toEqual([1, 2]);
    expect(wire.problems).toEqual([]);
  });

  describe.each([LEGACY, MODERN] as const)('%s upstream', (upstreamEra) => {
    it.each([LEGACY, MODERN] as const)('%s downstream: cancelling call_tool cancels the upstream call', async (version) => {
      let started = 0;
      let cancelled = 0;
      const up = new McpServer({ name: 'slow', version: '1.0.0', ...(upstreamEra === LEGACY ? { protocolVersions: [LEGACY] as const } : {}) });
      up.tool('hang', { description: 'answers only when cancelled' }, (_args, ctx) => {
        started += 1;
        return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => ((cancelled += 1), reject(new Error('cancelled')))));
      });
      const gateway = createGateway(parseGatewayConfig({ mcpServers: { slow: { url: await served(up), toolSearch: true } } }));
      cleanup.push(() => gateway.close());
      expect(await gateway.ready()).toEqual([]);
      const { client, wire } = await connect(await served(gateway.server), version);
      const controller = new AbortController();
      const hanging = client.callTool('slow_call_tool', { name: 'hang' }, { signal: controller.signal });
      await eventually(() => started === 1, { message: 'the upstream call started' });
      expect(cancelled).toBe(0);
      controller.abort();
      await expect(hanging).rejects.toThrow(/aborted/);
      await eventually(() => cancelled === 1, { message: 'the upstream call was cancelled' });
      // The link still works: the next call through call_tool goes out and is cancelled the same way.
      const again = new AbortController();
      const second = client.callTool('slow_call_tool', { name: 'hang' }, { signal: again.signal });
      await eventually(() => started === 2);
      again.abort();
      await expect(second).rejects.toThrow(/aborted/);
      await eventually(() => cancelled === 2);
      expect(wire.problems).toEqual([]);
    });
  });

  it('a toolSearch that is not a boolean is refused, naming the key', () => {
    expect(() => parseGatewayConfig({ mcpServers: { big: { url: 'http://127.0.0.1:1/mcp', toolSearch: 'yes' } } })).toThrow('mcpServers.big.toolSearch must be true or false (got "yes")');
  });
});

describe('options', () => {
  const provider: McpProvider<RequestContext> = { listTools: () => [] };
  it('a misspelt option names the right one; ranges and names are checked', () => {
    expect(() => toolSearchProvider(provider, { maxResult: 3 } as never)).toThrow(RegistrationError);
    expect(() => toolSearchProvider(provider, { maxResult: 3 } as never)).toThrow(/maxResults/);
    expect(() => transformProvider(provider, { toolSearch: { maxResults: 0 } })).toThrow('transformProvider() toolSearch.maxResults must be an integer from 1 to 100 (got 0)');
    expect(() => toolSearchProvider(provider, { searchToolName: 'find', callToolName: 'find' })).toThrow(/both "find"/);
    expect(() => toolSearchProvider(provider, { callToolName: 'call tool' })).toThrow(/callToolName must be a tool name/);
  });

  it('search answers at most maxResults, best first, only tools that match (property)', () => {
    const tools = Array.from({ length: 200 }, (_, i): McpTool<never, unknown> => ({ name: `t${i}`, description: `word${i % 7} word${i % 11}`, execute: () => ({ content: [] }) }));
    fc.assert(fc.property(fc.string({ maxLength: 80 }), fc.integer({ min: 1, max: 100 }), (query, max) => {
      const hits = searchTools(tools, query, max);
      expect(hits.length).toBeLessThanOrEqual(max);
      const words = query.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');
      for (const hit of hits) expect(words.some((w) => hit.name.includes(w) || (hit.description ?? '').includes(w))).toBe(true);
    }));
  });
});
