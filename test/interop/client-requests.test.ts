/**
 * The official v1 SDK client (@modelcontextprotocol/sdk 1.32.2) spawns an
 * mcpkit stdio server whose tools elicit, sample and list roots; the SDK's
 * request handlers answer, and the answers round-trip back into the tools.
 * Everything mcpkit wrote is validated against the negotiated revision.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { validateProcessWire, wireLog, type WireLog } from '../support/wire-log.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/client-requests-server.mjs', import.meta.url));

type Json = Record<string, unknown>;
let clients: { client: Client; transport: StdioClientTransport }[] = [];
let log: WireLog;
/** What the SDK client's handlers were asked, in order. */
let asked: Json[];
/** When set, the elicitation handler waits until the server cancels it. */
let hang = false;
let cancelledByServer: string[] = [];

beforeEach(() => {
  log = wireLog();
  asked = [];
  hang = false;
  cancelledByServer = [];
});

afterEach(async () => {
  for (const { client, transport } of clients) {
    const pid = transport.pid;
    await client.close();
    if (pid !== null) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone: the server exited on stdin EOF.
      }
    }
  }
  clients = [];
  log.remove();
});

async function connect(capabilities: Json): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { ...(process.env as Record<string, string>), MCPKIT_WIRE_LOG: log.prefix },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'interop-client-requests', version: '1.0.0' }, { capabilities });
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    asked.push({ method: request.method, params: request.params });
    if (hang) {
      // Never answers: resolves only when mcpkit cancels the request.
      return new Promise((resolve) => extra.signal.addEventListener('abort', () => {
        cancelledByServer.push(String(extra.signal.reason));
        resolve({ action: 'cancel' });
      }));
    }
    if (request.params.mode === 'url') return { action: 'accept' };
    return { action: 'accept', content: { name: 'api', region: 'us', tier: 'pro', features: ['logs', 'traces'], alerts: ['sms'] } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    asked.push({ method: request.method, params: request.params });
    if (request.params.tools !== undefined) {
      return {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Oslo' } }],
        model: 'sdk-test-model',
        stopReason: 'toolUse',
      };
    }
    return { role: 'assistant', content: { type: 'text', text: '4' }, model: 'sdk-test-model', stopReason: 'endTurn' };
  });
  client.setRequestHandler(ListRootsRequestSchema, (request) => {
    asked.push({ method: request.method });
    return { roots: [{ uri: 'file:///home/ada/project', name: 'project' }] };
  });
  clients.push({ client, transport });
  await client.connect(transport);
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  expect(content).toHaveLength(1);
  return content[0]!.text;
}

function validateWire(expectedProcesses = 1): void {
  const wires = log.read();
  expect(wires).toHaveLength(expectedProcesses);
  for (const wire of wires) expect(validateProcessWire(wire, '2025-11-25')).toBeGreaterThan(0);
}

describe('server→client requests answered by the v1 SDK client', () => {
  const CAPABILITIES = { elicitation: {}, sampling: {}, roots: { listChanged: true } };

  it('form elicitation round-trips', async () => {
    const c = await connect(CAPABILITIES);
    const result = await c.callTool({ name: 'elicit-form', arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({
      action: 'accept',
      content: { name: 'api', region: 'us', tier: 'pro', features: ['logs', 'traces'], alerts: ['sms'] },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'elicitation/create', params: { message: 'Configure the deployment' } });
    expect((asked[0]!['params'] as { requestedSchema: Json }).requestedSchema['required']).toEqual(['name', 'region']);
    validateWire();
  });

  it('sampling round-trips', async () => {
    const c = await connect(CAPABILITIES);
    const result = await c.callTool({ name: 'sample', arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({ role: 'assistant', content: { type: 'text', text: '4' }, model: 'sdk-test-model', stopReason: 'endTurn' });
    expect(asked).toEqual([
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }], maxTokens: 16, systemPrompt: 'Be brief' },
      },
    ]);
    validateWire();
  });

  it('roots round-trip, and roots/list_changed reaches the server as an event', async () => {
    const c = await connect(CAPABILITIES);
    expect(JSON.parse(textOf(await c.callTool({ name: 'roots', arguments: {} })))).toEqual({ roots: [{ uri: 'file:///home/ada/project', name: 'project' }] });
    expect(asked).toEqual([{ method: 'roots/list' }]);
    expect(textOf(await c.callTool({ name: 'roots-changes', arguments: {} }))).toBe('0');
    await c.sendRootsListChanged();
    await c.sendRootsListChanged();
    // Notifications and requests are read in order from stdin: the count is up to date.
    expect(textOf(await c.callTool({ name: 'roots-changes', arguments: {} }))).toBe('2');
    validateWire();
  });

  it('without url elicitation or sampling tools declared, the server refuses before asking', async () => {
    const c = await connect(CAPABILITIES);
    expect(textOf(await c.callTool({ name: 'elicit-url', arguments: {} }))).toBe(
      'refused: -32021 This request needs the client capability "elicitation (url mode)", which the client did not declare',
    );
    expect(textOf(await c.callTool({ name: 'sample-with-tools', arguments: {} }))).toBe(
      'refused: -32021 This request needs the client capability "sampling with tools", which the client did not declare',
    );
    expect(asked).toEqual([]);
    validateWire();
  });

  it('URL elicitation and sampling with tools round-trip when declared', async () => {
    const c = await connect({ elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} });
    expect(JSON.parse(textOf(await c.callTool({ name: 'elicit-url', arguments: {} })))).toEqual({ action: 'accept' });
    const sampled = JSON.parse(textOf(await c.callTool({ name: 'sample-with-tools', arguments: {} })));
    expect(sampled).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Oslo' } }],
      model: 'sdk-test-model',
      stopReason: 'toolUse',
    });
    expect(asked.map((a) => a['method'])).toEqual(['elicitation/create', 'sampling/createMessage']);
    expect(asked[0]!['params']).toEqual({ mode: 'url', message: 'Sign in', url: 'https://auth.example.com/login', elicitationId: 'el-42' });
    expect((asked[1]!['params'] as Json)['tools']).toEqual([
      { name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    ]);
    validateWire();
  });

  it('cancelling the tool call cancels the elicitation the SDK client is answering', async () => {
    const c = await connect(CAPABILITIES);
    hang = true;
    const controller = new AbortController();
    const call = c.callTool({ name: 'elicit-form', arguments: {} }, undefined, { signal: controller.signal });
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow(/user pressed stop|abort/i);
    await vi.waitFor(() => expect(cancelledByServer).toHaveLength(1));
    // The server still serves the session afterwards.
    hang = false;
    expect(JSON.parse(textOf(await c.callTool({ name: 'sample', arguments: {} })))).toMatchObject({ content: { text: '4' } });
    const [wire] = log.read();
    const cancels = wire!.outbound.filter((m) => (m as Json)['method'] === 'notifications/cancelled');
    expect(cancels).toEqual([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'mcpkit-1', reason: 'The originating request was cancelled' } }]);
    validateWire();
  });
});
