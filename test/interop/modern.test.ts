/**
 * Interop with the official SDK clients: the v2 client (@modelcontextprotocol/client
 * 2.4.0) negotiating with `versionNegotiation: 'auto'` against the everything-server
 * over HTTP and a spawned stdio fixture built from dist, answering MRTR input
 * requests through its handlers and holding a listen stream; and the v1 client
 * (@modelcontextprotocol/sdk 1.32.2) on the same URL, still on a legacy session.
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type McpHttpListener } from '../../src/http.js';
import { McpServer } from '../../src/index.js';
import { registerInputRequiredTools } from '../../examples/everything-server/input-required.js';
import { registerChangeTriggers, registerPrompts, registerResources } from '../../examples/everything-server/resources-prompts.js';
import { registerBasicTools } from '../../examples/everything-server/tools.js';
import { until } from '../fixtures/modern-http.mjs';

const fixture = fileURLToPath(new URL('../fixtures/modern-stdio-server.mjs', import.meta.url));
const textOf = (result: unknown): string => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

/** A v2 client that answers every kind of input request from its handlers. */
function v2Client(): Client {
  const client = new Client(
    { name: 'sdk-v2', version: '2.4.0' },
    { capabilities: { elicitation: {}, sampling: {}, roots: { listChanged: true } }, versionNegotiation: { mode: 'auto' } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const wants = Object.keys((request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {});
    return { action: 'accept', content: Object.fromEntries(wants.map((k) => [k, k === 'ok' ? true : k === 'name' ? 'Ada' : `my ${k}`])) };
  });
  client.setRequestHandler('sampling/createMessage', async () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: 'Paris' } }));
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  return client;
}

// The everything-server's fixtures, registered on an McpServer from src (the example
// itself imports the built package under its published name).
let listener: McpHttpListener;
const closers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  const server = new McpServer({ name: 'mcpkit-everything-server', version: '0.1.0' });
  registerBasicTools(server);
  registerInputRequiredTools(server);
  registerChangeTriggers(server);
  registerResources(server);
  registerPrompts(server);
  listener = await listen(server, { port: 0, keepAliveMs: 0 });
});
afterAll(async () => {
  for (const c of closers.splice(0)) await c.close().catch(() => undefined);
  await listener.close({ graceMs: 0 });
});

describe('SDK v2 client over Streamable HTTP', () => {
  it('negotiates 2026-07-28 by probing server/discover and uses tools, resources, prompts', async () => {
    const client = v2Client();
    closers.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerVersion()).toMatchObject({ name: 'mcpkit-everything-server', version: '0.1.0' });

    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('test_simple_text');
    expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toContain('test://static-text');
    const read = await client.readResource({ uri: 'test://static-text' });
    expect(read.contents[0]).toMatchObject({ uri: 'test://static-text', mimeType: 'text/plain' });
    const templated = await client.readResource({ uri: 'test://template/42/data' });
    expect(JSON.stringify(templated.contents[0])).toContain('42');
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toContain('test_prompt_with_arguments');
    const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
    expect(prompt.messages.length).toBeGreaterThan(0);
  });

  it('fulfils MRTR input requests (elicitation, sampling, roots, several rounds, prompts) through its handlers', async () => {
    const client = v2Client();
    closers.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    expect(textOf(await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }))).toBe('Hello, Ada!');
    expect(textOf(await client.callTool({ name: 'test_input_required_result_sampling', arguments: {} }))).toBe('The model said: Paris');
    expect(textOf(await client.callTool({ name: 'test_input_required_result_list_roots', arguments: {} }))).toBe('Found 1 root(s)');
    expect(textOf(await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} }))).toBe('Paris Ada (1 roots)');
    expect(textOf(await client.callTool({ name: 'test_input_required_result_request_state', arguments: {} }))).toContain('state-ok');
    expect(textOf(await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} }))).toBe('Done: {"name":"Ada"} {"city":"my city"}');
    const prompt = await client.getPrompt({ name: 'test_input_required_result_prompt', arguments: {} });
    expect(JSON.stringify(prompt.messages)).toContain('my context');
  });

  it('holds a subscriptions/listen stream and receives tools/list_changed', async () => {
    const client = v2Client();
    closers.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes++;
    });
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await until(() => changes > 0);
    await subscription.close();
    expect(await subscription.closed).toBe('local');
  });
});

describe('SDK v1 client on the same URL', () => {
  it('still opens a legacy session and calls tools, with elicitation as a server request', async () => {
    const client = new ClientV1({ name: 'sdk-v1', version: '1.32.2' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace' } }));
    closers.push(client);
    const transport = new StreamableV1(new URL(listener.url));
    await client.connect(transport);
    expect(transport.sessionId).toBeTruthy();
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
    // The same handler that used MRTR above sends a JSON-RPC request on a legacy session.
    expect(textOf(await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }))).toBe('Hello, Grace!');
  });
});

describe('SDK v2 client over stdio (spawned fixture built from dist)', () => {
  it('negotiates 2026-07-28 and completes tools, resources, prompts and an elicitation via MRTR', async () => {
    const client = v2Client();
    closers.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: 'pipe' }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['add', 'ask_name', 'change_tools']);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } }))).toBe('42');
    expect(textOf(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Ada! (2026-07-28)');
    expect((await client.readResource({ uri: 'memo://hello' })).contents[0]).toMatchObject({ text: 'hello from stdio' });
    expect((await client.getPrompt({ name: 'greet', arguments: { who: 'you' } })).messages[0]).toMatchObject({ content: { text: 'Greet you' } });

    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes++;
    });
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true, promptsListChanged: true });
    await client.callTool({ name: 'change_tools', arguments: {} });
    await until(() => changes > 0);
    await subscription.close();
  });

  it('the legacy negotiation mode still gets an initialize session from the same process', async () => {
    const client = new Client({ name: 'sdk-v2-legacy', version: '2.4.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Lin' } }));
    closers.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: 'pipe' }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(textOf(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Lin! (2025-11-25)');
  });
});
