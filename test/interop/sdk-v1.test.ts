/**
 * The official v1 SDK client (@modelcontextprotocol/sdk 1.32.2) spawns the
 * mcpkit fixture server over stdio and uses every foundation method. Every
 * message mcpkit wrote is validated against the negotiated revision.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE } from '../support/process.js';
import { validateProcessWire, wireLog, type WireLog } from '../support/wire-log.js';

let client: Client | undefined;
let transport: StdioClientTransport | undefined;
let log: WireLog;

beforeEach(() => {
  log = wireLog();
});

afterEach(async () => {
  const pid = transport?.pid ?? null;
  await client?.close();
  if (pid !== null) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone: the server exited on stdin EOF.
    }
  }
  client = undefined;
  transport = undefined;
  log.remove();
});

async function connect(): Promise<Client> {
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { ...(process.env as Record<string, string>), MCPKIT_WIRE_LOG: log.prefix },
    stderr: 'pipe',
  });
  client = new Client({ name: 'interop-v1', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('v1 SDK client over stdio', () => {
  it('initializes, lists and calls tools, reads resources, gets prompts', async () => {
    const c = await connect();
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(c.getServerVersion()).toEqual({ name: 'mcpkit-fixture', version: '1.0.0' });
    expect(c.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
    });
    expect(c.getInstructions()).toBe('A test fixture.');

    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'add', 'noisy', 'fail', 'confirm', 'wait', 'release']);
    expect(await c.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(await c.callTool({ name: 'add', arguments: { a: 20, b: 22 } })).toEqual({
      content: [{ type: 'text', text: '{"sum":42}' }],
      structuredContent: { sum: 42 },
    });
    expect(await c.callTool({ name: 'fail', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'the tool failed' }], isError: true });

    expect((await c.listResources()).resources).toEqual([{ uri: 'mem://greeting', name: 'greeting', description: 'A greeting', mimeType: 'text/plain' }]);
    expect((await c.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'mem://items/{id}', name: 'item', mimeType: 'text/plain' }]);
    expect(await c.readResource({ uri: 'mem://greeting' })).toEqual({ contents: [{ uri: 'mem://greeting', mimeType: 'text/plain', text: 'hello from mcpkit' }] });
    expect(await c.readResource({ uri: 'mem://items/7' })).toEqual({ contents: [{ uri: 'mem://items/7', mimeType: 'text/plain', text: 'item 7' }] });

    expect((await c.listPrompts()).prompts).toEqual([
      { name: 'greet', description: 'Greets someone', arguments: [{ name: 'name', description: 'Who to greet', required: true }] },
    ]);
    expect(await c.getPrompt({ name: 'greet', arguments: { name: 'Ada' } })).toEqual({
      description: 'Greets someone',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }],
    });
    expect(await c.ping()).toEqual({});

    await c.close();
    const [wire, ...others] = log.read();
    expect(others).toEqual([]);
    expect(wire!.inbound[0]).toMatchObject({ method: 'initialize', params: { protocolVersion: '2025-11-25' } });
    expect(wire!.inbound[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // One response per request, each valid for 2025-11-25; nothing else was written.
    expect(wire!.inbound.filter((m) => 'id' in m)).toHaveLength(12);
    expect(validateProcessWire(wire!, '2025-11-25')).toBe(12);
  });

  it('surfaces JSON-RPC errors as McpError with the wire code', async () => {
    const c = await connect();
    await expect(c.callTool({ name: 'missing', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(c.readResource({ uri: 'mem://nope' })).rejects.toMatchObject({ code: -32002, data: { uri: 'mem://nope' } });
    await expect(c.getPrompt({ name: 'greet', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await c.close();
    const [wire] = log.read();
    validateProcessWire(wire!, '2025-11-25');
  });

  it('keeps serving concurrent calls: a waiting tool does not block the others', async () => {
    const c = await connect();
    const order: string[] = [];
    const slow = c.callTool({ name: 'wait', arguments: { label: 'x' } }).then((r) => {
      order.push('slow');
      return r;
    });
    const fast = await c.callTool({ name: 'echo', arguments: { text: 'fast' } });
    order.push('fast');
    expect(fast).toEqual({ content: [{ type: 'text', text: 'fast' }] });
    await c.callTool({ name: 'release', arguments: { label: 'x' } });
    expect(await slow).toEqual({ content: [{ type: 'text', text: 'released x' }] });
    expect(order).toEqual(['fast', 'slow']);
    await c.close();
    const [wire] = log.read();
    validateProcessWire(wire!, '2025-11-25');
  });

  it('answers a server→client elicitation request during a tool call', async () => {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [FIXTURE],
      env: { ...(process.env as Record<string, string>), MCPKIT_WIRE_LOG: log.prefix },
      stderr: 'pipe',
    });
    client = new Client({ name: 'interop-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { ok: true } };
    });
    await client.connect(transport);
    expect(await client.callTool({ name: 'confirm', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'accept:{"ok":true}' }] });
    expect(asked).toEqual(['Proceed?']);
    await client.close();
    const [wire] = log.read();
    const elicitation = wire!.outbound.find((m) => (m as Record<string, unknown>)['method'] === 'elicitation/create');
    expect(elicitation).toMatchObject({ jsonrpc: '2.0', method: 'elicitation/create', params: { message: 'Proceed?' } });
    validateProcessWire(wire!, '2025-11-25');
  });

  it('receives log notifications while stderr output stays off the protocol stream', async () => {
    const c = await connect();
    const messages: unknown[] = [];
    c.setNotificationHandler(
      (await import('@modelcontextprotocol/sdk/types.js')).LoggingMessageNotificationSchema,
      (notification) => void messages.push(notification.params),
    );
    await c.setLoggingLevel('info');
    expect(await c.callTool({ name: 'noisy', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'quiet result' }] });
    expect(messages).toEqual([{ level: 'info', data: 'noisy: client log message' }]);
    await c.close();
    const [wire] = log.read();
    validateProcessWire(wire!, '2025-11-25');
  });
});
