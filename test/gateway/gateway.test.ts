/**
 * createGateway in this process, served over HTTP, in front of upstream servers nobody here wrote
 * (server-everything, server-memory, server-filesystem over stdio) and mcpkit servers over HTTP
 * (both eras), driven by the official SDK v1 client and mcpkit/client in both eras: forwarding,
 * names mapped back, faults and isolation.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen, type McpHttpListener } from '../../src/adapters/node.js';
import { Client, McpError, StreamableHttpTransport, type ClientOptions } from '../../src/client.js';
import { createGateway, type McpGateway } from '../../src/gateway.js';
import { eventually } from '../support/eventually.js';

const modules = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url));
const EVERYTHING = join(modules, 'server-everything/dist/index.js');
const MEMORY = join(modules, 'server-memory/dist/index.js');
const FILESYSTEM = join(modules, 'server-filesystem/dist/index.js');

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

/** An mcpkit upstream that shows what reached it: headers, log level, cancellation. */
function recordingUpstream(seen: { headers: Record<string, string | undefined>[]; cancelled: number }, era: 'legacy' | 'modern' = 'modern'): McpServer {
  // A legacy-only upstream keeps sessions; a 2026-07-28 one (the default) keeps none.
  const server = new McpServer({ name: 'recording', version: '1.0.0', ...(era === 'legacy' ? { protocolVersions: ['2025-11-25'] as const } : {}) });
  server.tool('session', { description: 'the upstream session this request came on' }, (_args, ctx) => ctx.sessionId ?? 'none');
  server.tool('whoami', { description: 'the headers this request came with' }, (_args, ctx) => {
    seen.headers.push({ ...ctx.requestInfo?.headers });
    return JSON.stringify({ authorization: ctx.requestInfo?.headers['authorization'] ?? null, key: ctx.requestInfo?.headers['x-api-key'] ?? null });
  });
  server.tool('hang', { description: 'never answers' }, (_args, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => ((seen.cancelled += 1), reject(new Error('cancelled'))))));
  server.tool('chatty', { description: 'logs at two levels' }, async (_args, ctx) => {
    await ctx.log('debug', 'a debug line');
    await ctx.log('warning', 'a warning line');
    return 'done';
  });
  server.resource('note://a', { name: 'a', description: 'note a' }, () => 'A');
  return server;
}

async function serve(server: McpServer, options: Parameters<typeof listen>[1] = {}): Promise<McpHttpListener> {
  const listener = await listen(server, { port: 0, ...options });
  cleanup.push(() => listener.close());
  return listener;
}

async function gatewayOver(config: Parameters<typeof createGateway>[0], options: Parameters<typeof createGateway>[1] = {}): Promise<{ gateway: McpGateway; url: string }> {
  const gateway = createGateway(config, { proxy: { onStderr: () => undefined }, ...options });
  cleanup.push(() => gateway.close());
  expect(await gateway.ready()).toEqual([]);
  const listener = await serve(gateway.server);
  return { gateway, url: listener.url };
}

/** A form answer that fits any requestedSchema the everything-server sends: the first choice, 'Ada', true, the minimum. */
function fill(params: object): Record<string, string | number | boolean | string[]> {
  const properties = (((params as { requestedSchema?: unknown }).requestedSchema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties ?? {});
  const first = (p: Record<string, unknown>): string | undefined =>
    Array.isArray(p['enum']) ? String(p['enum'][0]) : Array.isArray(p['oneOf']) ? String((p['oneOf'][0] as { const: unknown }).const) : Array.isArray(p['anyOf']) ? String((p['anyOf'][0] as { const: unknown }).const) : undefined;
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [key, p] of Object.entries(properties)) {
    if (p['type'] === 'array') out[key] = [first((p['items'] ?? {}) as Record<string, unknown>) ?? 'x'];
    else if (p['type'] === 'boolean') out[key] = true;
    else if (p['type'] === 'number' || p['type'] === 'integer') out[key] = typeof p['minimum'] === 'number' ? p['minimum'] : 1;
    else out[key] = first(p) ?? (p['format'] === 'email' ? 'ada@example.com' : p['format'] === 'date' ? '2026-01-01' : p['format'] === 'uri' ? 'https://example.com' : 'Ada');
  }
  return out;
}

const answering: ClientOptions = {
  elicitation: (params) => ({ action: 'accept', content: params.mode === 'url' ? {} : fill(params) }),
  sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'sampled by the downstream client' }, model: 'downstream-model' }),
  roots: [{ uri: 'file:///downstream-root', name: 'root' }],
};

async function mcpkitClient(url: string, protocolVersion: '2025-11-25' | '2026-07-28', options: ClientOptions = {}): Promise<Client> {
  const client = new Client({ protocolVersion, ...answering, ...options });
  await client.connect(new StreamableHttpTransport(url));
  cleanup.push(() => client.close());
  return client;
}

const textOf = (result: { content?: unknown }): string => ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

describe('behind one gateway: server-everything, server-memory and server-filesystem over stdio', () => {
  let gateway: McpGateway;
  let url: string;
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-gateway-'));
  writeFileSync(join(dir, 'hello.txt'), 'hello from the filesystem');

  const shared: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    ({ gateway, url } = await gatewayOver({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
        memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
        fs: { command: process.execPath, args: [FILESYSTEM, dir] },
      },
    }));
    // The gateway lives for the whole describe, not one test.
    shared.push(...cleanup.splice(0));
  }, 60_000);
  afterAll(async () => {
    for (const fn of shared.splice(0).reverse()) await fn().catch(() => undefined);
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('%s: lists every upstream under its namespace, calls, reads, gets prompts', async (version) => {
    const client = await mcpkitClient(url, version);
    const tools = [];
    for await (const tool of client.tools()) tools.push(tool.name);
    expect(tools).toEqual(expect.arrayContaining(['everything_echo', 'memory_create_entities', 'memory_read_graph', 'fs_read_text_file']));
    expect(textOf(await client.callTool('everything_echo', { message: 'hi' }))).toBe('Echo: hi');
    expect(textOf(await client.callTool('fs_read_text_file', { path: join(dir, 'hello.txt') }))).toContain('hello from the filesystem');
    // Resource URIs carry the namespace and read back through the gateway.
    const resources = await client.listResources();
    const first = resources.resources.find((r) => r.uri.startsWith('everything+'))!;
    expect(first).toBeDefined();
    const read = await client.readResource(first.uri);
    expect(read.contents[0]!.uri).toBe(first.uri);
    // Templates keep their variables, so a listed one can be filled in.
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.some((t) => t.uriTemplate.startsWith('everything+') && t.uriTemplate.includes('{'))).toBe(true);
    const prompts = await client.listPrompts();
    const simple = prompts.prompts.find((p) => p.name === 'everything_simple-prompt');
    expect(simple).toBeDefined();
    const got = await client.getPrompt('everything_simple-prompt');
    expect(got.messages.length).toBeGreaterThan(0);
  }, 30_000);

  it.each(['2025-11-25', '2026-07-28'] as const)('%s: progress, sampling and elicitation reach the downstream client and come back', async (version) => {
    const client = await mcpkitClient(url, version);
    const progress: number[] = [];
    const long = await client.callTool('everything_trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(textOf(long)).toContain('completed');
    expect(progress).toEqual([1, 2, 3]);
    // A legacy stdio upstream asks mid-call; a 2026-07-28 downstream answers through input_required rounds.
    expect(textOf(await client.callTool('everything_trigger-sampling-request', { prompt: 'capital of France?' }))).toContain('sampled by the downstream client');
    expect(textOf(await client.callTool('everything_trigger-elicitation-request', {}))).toContain('Ada');
  }, 30_000);

  it('the official SDK v1 client (legacy) gets sampling and elicitation requests as JSON-RPC requests', async () => {
    const client = new SdkClient({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(CreateMessageRequestSchema, () => ((asked += 1), { role: 'assistant', content: { type: 'text', text: 'from sdk v1' }, model: 'v1' }));
    client.setRequestHandler(ElicitRequestSchema, () => ((asked += 1), { action: 'decline' }));
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    cleanup.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.some((t) => t.name === 'memory_read_graph')).toBe(true);
    const sampled = await client.callTool({ name: 'everything_trigger-sampling-request', arguments: { prompt: 'x' } });
    expect(JSON.stringify(sampled.content)).toContain('from sdk v1');
    const declined = await client.callTool({ name: 'everything_trigger-elicitation-request', arguments: {} });
    expect(JSON.stringify(declined.content)).toMatch(/decline/i);
    expect(asked).toBe(2);
  }, 30_000);

  it('an unknown namespaced name is -32602 from the gateway and never reaches an upstream', async () => {
    const client = await mcpkitClient(url, '2025-11-25');
    const before = JSON.stringify([...gateway.proxies.values()].map((p) => p.requests));
    for (const name of ['everything_no_such_tool', 'memory_', 'nobody_echo', 'everythingecho', 'fs_everything_echo']) {
      const error = await client.callTool(name).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
    }
    expect(JSON.stringify([...gateway.proxies.values()].map((p) => p.requests))).toBe(before);
  });

  it('exactly one upstream request per proxied call: lists are cached', async () => {
    const client = await mcpkitClient(url, '2025-11-25');
    // The session's own upstream process starts on its first call (and may announce list changes as it does).
    await client.callTool('everything_echo', { message: 'warm up' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.listTools();
    const everything = gateway.proxies.get('everything')!;
    const before = { ...everything.requests };
    for (let i = 0; i < 5; i++) await client.callTool('everything_echo', { message: String(i) });
    await client.listTools();
    expect(everything.requests['tools/call']! - (before['tools/call'] ?? 0)).toBe(5);
    expect(everything.requests['tools/list']).toBe(before['tools/list']);
    expect(everything.requests['initialize' as never]).toBeUndefined();
  });

  it('two downstream sessions never see each other\'s requests for input: each elicitation goes to the client whose call asked', async () => {
    const asked = { alice: 0, bob: 0 };
    const alice = await mcpkitClient(url, '2025-11-25', { elicitation: (params) => ((asked.alice += 1), { action: 'accept', content: fill(params) }) });
    const bob = await mcpkitClient(url, '2025-11-25', { elicitation: (params) => ((asked.bob += 1), { action: 'accept', content: fill(params) }) });
    await Promise.all([alice.callTool('everything_trigger-elicitation-request', {}), bob.callTool('everything_trigger-elicitation-request', {}), alice.callTool('everything_trigger-elicitation-request', {})]);
    expect(asked).toEqual({ alice: 2, bob: 1 });
  }, 30_000);

  it('a stdio upstream killed mid-call: the call fails naming the upstream, the next call works, other upstreams are unaffected', async () => {
    const client = await mcpkitClient(url, '2025-11-25');
    const before = new Set(await pidsOf(process.pid));
    // The session's first call spawns its own everything-server process: the one to kill.
    await client.callTool('everything_echo', { message: 'warm up' });
    const victims = (await childCommands(process.pid)).filter((c) => c.args.includes(EVERYTHING) && !before.has(c.pid));
    expect(victims).toHaveLength(1);
    const victim = victims[0];
    const running = client.callTool('everything_trigger-long-running-operation', { duration: 5, steps: 5 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(victim!.pid, 'SIGKILL');
    const error = await running.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toMatch(/upstream "everything" failed during tools\/call: The server process exited \(SIGKILL\)/);
    expect(textOf(await client.callTool('fs_list_allowed_directories', {}))).toContain(dir.split('/').pop()!);
    expect(textOf(await client.callTool('everything_echo', { message: 'again' }))).toBe('Echo: again');
  }, 30_000);
});

describe('behind one gateway: mcpkit upstreams over HTTP, both eras', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)('%s downstream: config headers on every upstream request, the downstream token never', async (version) => {
    const seen = { headers: [] as Record<string, string | undefined>[], cancelled: 0 };
    const upstream = await serve(recordingUpstream(seen));
    const { url } = await gatewayOver({ mcpServers: { rec: { url: upstream.url, headers: { 'x-api-key': 'upstream-key' } } } });
    const client = new Client({ protocolVersion: version });
    await client.connect(new StreamableHttpTransport(url, { token: 'downstream-token-never-forwarded' }));
    cleanup.push(() => client.close());
    const answer = JSON.parse(textOf(await client.callTool('rec_whoami', {}))) as { authorization: string | null; key: string | null };
    expect(answer).toEqual({ authorization: null, key: 'upstream-key' });
    for (const headers of seen.headers) expect(JSON.stringify(headers)).not.toContain('downstream-token-never-forwarded');
  });

  it.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-11-25', '2026-07-28'],
    ['2026-07-28', '2025-11-25'],
    ['2026-07-28', '2026-07-28'],
  ] as const)('upstream %s, downstream %s: logs at the downstream level, cancellation reaches the upstream', async (upstreamEra, downstreamEra) => {
    const seen = { headers: [] as Record<string, string | undefined>[], cancelled: 0 };
    const upstream = await serve(recordingUpstream(seen, upstreamEra === '2025-11-25' ? 'legacy' : 'modern'));
    const { gateway, url } = await gatewayOver({ url: upstream.url });
    const logs: unknown[] = [];
    const client = await mcpkitClient(url, downstreamEra, { logLevel: 'info' });
    if (downstreamEra === '2025-11-25') await client.setLoggingLevel('info');
    client.on('notifications/message', (params) => logs.push(params['data']));
    expect(textOf(await client.callTool('chatty', {}))).toBe('done');
    await eventually(() => logs.length > 0);
    expect(logs).toEqual(['a warning line']);
    const controller = new AbortController();
    const hanging = client.callTool('hang', {}, { signal: controller.signal });
    await eventually(() => (gateway.proxies.get('')!.requests['tools/call'] ?? 0) >= 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await expect(hanging).rejects.toThrow(/aborted/);
    await eventually(() => seen.cancelled === 1);
  });

  it('an upstream session that expired (404) is re-opened, the log level replayed, the call answered', async () => {
    const seen = { headers: [] as Record<string, string | undefined>[], cancelled: 0 };
    let upstream = await serve(recordingUpstream(seen, 'legacy'));
    const port = Number(new URL(upstream.url).port);
    const { gateway, url } = await gatewayOver({ url: upstream.url });
    const client = await mcpkitClient(url, '2025-11-25');
    await client.setLoggingLevel('warning');
    const logs: unknown[] = [];
    client.on('notifications/message', (params) => logs.push(params['data']));
    expect(textOf(await client.callTool('chatty', {}))).toBe('done');
    const first = textOf(await client.callTool('session', {}));
    // The upstream restarts: every session it had is gone.
    await upstream.close();
    upstream = await serve(recordingUpstream(seen, 'legacy'), { port });
    expect(textOf(await client.callTool('chatty', {}))).toBe('done');
    await eventually(() => logs.length === 2);
    expect(logs).toEqual(['a warning line', 'a warning line']);
    // One more upstream session, not an error: the same tools/call went out again on it.
    const second = textOf(await client.callTool('session', {}));
    expect(second).not.toBe(first);
    expect(second).not.toBe('none');
    expect(gateway.proxies.get('')!.requests['tools/call']).toBe(4);
  });

  it('the downstream session ends: its upstream session is closed', async () => {
    const seen = { headers: [] as Record<string, string | undefined>[], cancelled: 0 };
    const upstreamServer = recordingUpstream(seen, 'legacy');
    const upstream = await serve(upstreamServer);
    const { url } = await gatewayOver({ url: upstream.url });
    const client = new Client({ protocolVersion: '2025-11-25' });
    await client.connect(new StreamableHttpTransport(url));
    await client.callTool('whoami', {});
    const open = upstreamServer.connectionCount;
    await client.close(); // DELETE: the downstream session ends
    await eventually(() => upstreamServer.connectionCount < open);
  });

  it('resources/updated: a subscription goes upstream, the update comes back with the namespaced URI, to the subscriber only', async () => {
    const seen = { headers: [] as Record<string, string | undefined>[], cancelled: 0 };
    const upstreamServer = recordingUpstream(seen, 'legacy');
    const upstream = await serve(upstreamServer);
    const { url } = await gatewayOver({ mcpServers: { rec: { url: upstream.url } } });
    const subscriber = await mcpkitClient(url, '2025-11-25');
    const other = await mcpkitClient(url, '2025-11-25');
    const updates: unknown[] = [];
    const others: unknown[] = [];
    subscriber.on('notifications/resources/updated', (params) => updates.push(params['uri']));
    other.on('notifications/resources/updated', (params) => others.push(params['uri']));
    await other.callTool('rec_whoami', {});
    await subscriber.subscribeResource('rec+note://a');
    await upstreamServer.notifyResourceUpdated('note://a');
    await eventually(() => updates.length === 1);
    expect(updates).toEqual(['rec+note://a']);
    expect(others).toEqual([]);
  });

  it('a hanging upstream does not hold up another one', async () => {
    const seen = { headers: [] as Record<string, string | undefined>[], cancelled: 0 };
    const slow = await serve(recordingUpstream(seen));
    const fast = await serve(recordingUpstream({ headers: [], cancelled: 0 }));
    const { url } = await gatewayOver({ mcpServers: { slow: { url: slow.url }, fast: { url: fast.url } } });
    const client = await mcpkitClient(url, '2026-07-28');
    const controller = new AbortController();
    const hanging = client.callTool('slow_hang', {}, { signal: controller.signal }).catch((e: unknown) => e);
    expect(textOf(await client.callTool('fast_chatty', {}))).toBe('done');
    controller.abort();
    expect(await hanging).toBeInstanceOf(Error);
  });
});

/** The SDK v1 logging handler sees a level-filtered stream (kept here so the schema import is used). */
void LoggingMessageNotificationSchema;

async function childCommands(parent: number): Promise<{ pid: number; args: string }[]> {
  const { readdirSync, readFileSync } = await import('node:fs');
  const out: { pid: number; args: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      out.push({ pid: Number(entry), args: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ') });
    } catch {
      // gone meanwhile
    }
  }
  return out.sort((a, b) => a.pid - b.pid);
}

async function pidsOf(parent: number): Promise<number[]> {
  return (await childCommands(parent)).map((c) => c.pid);
}
