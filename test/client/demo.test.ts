/**
 * mcpkit/client against mcpkit's own demo (examples/everything-server), in
 * memory, over Streamable HTTP and over stdio, in both eras.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport, McpError, McpTransportError, StdioClientTransport, StreamableHttpTransport, type ClientOptions, type ClientTransport } from '../../src/client.js';
import { listen, type McpHttpListener } from '../../src/adapters/node.js';
import { createEverythingServer } from '../../examples/everything-server/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const handlers: ClientOptions = {
  clientInfo: { name: 'demo-test', version: '1.0.0' },
  // Every string field the form asks for gets 'ada' (an address where it wants one); what it leaves out takes the schema's defaults.
  elicitation: (params) => ({
    action: 'accept',
    content: params.mode === 'url' ? {} : Object.fromEntries(Object.entries(params.requestedSchema.properties).filter(([, p]) => p['type'] === 'string').map(([key, p]) => [key, p['format'] === 'email' ? 'ada@example.com' : 'ada'])),
  }),
  sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' }),
  roots: [{ uri: 'file:///work', name: 'work' }],
};

async function transportFor(kind: 'memory' | 'http' | 'stdio'): Promise<ClientTransport> {
  if (kind === 'memory') return new InMemoryTransport(createEverythingServer());
  if (kind === 'stdio') return new StdioClientTransport({ command: process.execPath, args: ['examples/everything-server/main.js', '--stdio'], cwd: root });
  const listener: McpHttpListener = await listen(createEverythingServer(), { port: 0, legacySse: true });
  cleanup.push(() => listener.close());
  return new StreamableHttpTransport(listener.url);
}

async function connected(kind: 'memory' | 'http' | 'stdio', protocolVersion: NonNullable<ClientOptions['protocolVersion']>, options: ClientOptions = {}): Promise<Client> {
  const client = new Client({ ...handlers, protocolVersion, ...options });
  await client.connect(await transportFor(kind));
  cleanup.push(() => client.close());
  return client;
}

describe.each(['memory', 'http', 'stdio'] as const)('the demo over %s', (kind) => {
  it.each([
    ['2025-11-25', 'legacy'],
    ['2026-07-28', 'modern'],
    ['auto', 'modern'],
    ['2024-11-05', 'legacy'],
  ] as const)('negotiates %s as %s; lists, calls, reads and gets', async (version, era) => {
    const client = await connected(kind, version);
    expect(client.era).toBe(era);
    expect(client.serverInfo?.name).toBe('mcpkit-everything-server');
    const tools = [];
    for await (const tool of client.tools()) tools.push(tool.name);
    expect(tools).toContain('test_simple_text');
    const text = await client.callTool('test_simple_text');
    expect(text.content[0]).toMatchObject({ type: 'text' });
    const failed = await client.callTool('test_error_handling');
    expect(failed.isError).toBe(true);
    const read = await client.readResource('test://static-text');
    expect(read.contents[0]).toMatchObject({ uri: 'test://static-text' });
    const prompts = await client.listPrompts();
    expect(prompts.prompts.length).toBeGreaterThan(0);
    if (era === 'legacy') await expect(client.ping()).resolves.toBeTypeOf('object'); // 2026-07-28 has no ping
    const unknown = await client.callTool('no_such_tool').catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('reports progress and answers elicitation and sampling on %s', async (version) => {
    const client = await connected(kind, version);
    const progress: number[] = [];
    await client.callTool('test_tool_with_progress', {}, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([0, 50, 100]);
    const elicited = await client.callTool(version === '2026-07-28' ? 'test_input_required_result_elicitation' : 'test_elicitation', version === '2026-07-28' ? {} : { message: 'Who are you?' });
    expect(elicited.isError).not.toBe(true);
    expect(JSON.stringify(elicited.content)).toContain('ada');
  });
});

describe('a URL that is not the MCP endpoint', () => {
  it.each(['auto', '2025-11-25'] as const)('is refused with kind http and a message that says to check the path (%s)', async (protocolVersion) => {
    const listener = await listen(createEverythingServer(), { port: 0 });
    cleanup.push(() => listener.close());
    const wrong = listener.url.replace(/\/mcp$/, '/api');
    const client = new Client({ protocolVersion });
    const error = await client.connect(new StreamableHttpTransport(wrong)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpTransportError);
    expect(error).toMatchObject({ kind: 'http', status: 404 });
    expect((error as Error).message).toContain("is /api the server's MCP endpoint? (mcpkit and most servers answer on /mcp)");
  });

  it('on 2026-07-28 alone, the refusal names the status', async () => {
    const listener = await listen(createEverythingServer(), { port: 0 });
    cleanup.push(() => listener.close());
    const client = new Client({ protocolVersion: '2026-07-28' });
    const error = await client.connect(new StreamableHttpTransport(listener.url.replace(/\/mcp$/, '/api'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpTransportError);
    expect((error as Error).message).toMatch(/HTTP 404 .*the MCP endpoint is \/mcp/);
  });
});
