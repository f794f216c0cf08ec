/** The official SDK clients against the real McpServer over the node adapter. */
import { Client as ClientV2, SSEClientTransport as SSEClientTransportV2, StreamableHTTPClientTransport as StreamableV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from './fixtures.js';
import { eventually, startNode, type TestServer } from './support.js';

let server: TestServer | undefined;
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await server?.close();
  server = undefined;
});

function textOf(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0]?.text) ?? '';
}

describe('SDK v1 Client + StreamableHTTPClientTransport', () => {
  it('initializes a session, lists and calls tools, receives progress', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const client = new Client({ name: 'v1', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    clients.push(client);
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['echo', 'wait', 'progress', 'elicit', 'poll', 'steps', 'flood']);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    const progress: number[] = [];
    const result = await client.callTool({ name: 'progress', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(textOf(result)).toBe('progressed');
    expect(progress).toEqual([1, 2, 3]);
  });

  it('answers an elicitation sent on the tool call stream', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const client = new Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect(textOf(await client.callTool({ name: 'elicit', arguments: {} }))).toBe('hello Ada');
  });

  it('gets a result delivered after the server closed the stream (polling resumption)', async () => {
    const { server: mcp, gates } = buildServer();
    server = await startNode(mcp);
    const client = new Client({ name: 'v1', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 50, reconnectionDelayGrowFactor: 1, maxRetries: 20 } });
    clients.push(client);
    await client.connect(transport);
    const progress: number[] = [];
    const call = client.callTool({ name: 'poll', arguments: { gate: 'p1' } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    await eventually(() => progress.length === 1);
    gates.open('p1');
    expect(textOf(await call)).toBe('polled');
    expect(progress).toEqual([1, 2]);
  });

  it('runs requests of one session concurrently', async () => {
    const { server: mcp, gates } = buildServer();
    server = await startNode(mcp);
    const client = new Client({ name: 'v1', version: '1.0.0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const slow = client.callTool({ name: 'wait', arguments: { gate: 'slow' } });
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'fast' } }))).toBe('fast');
    expect(gates.completed).toEqual(['echo:fast']);
    gates.open('slow');
    expect(textOf(await slow)).toBe('released slow');
    expect(gates.completed).toEqual(['echo:fast', 'wait:slow']);
  });

  it('terminates its session with DELETE', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const client = new Client({ name: 'v1', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    const id = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    const after = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });
});

describe('SDK v1 SSEClientTransport (legacy HTTP+SSE, 2024-11-05)', () => {
  // (Progress is checked with raw HTTP in legacy-sse.test.ts: this client drops
  // notifications that share a network chunk with their response.)
  it('connects through /sse, calls tools and answers an elicitation', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp, { legacySse: true });
    const client = new Client({ name: 'legacy', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace' } }));
    clients.push(client);
    await client.connect(new SSEClientTransport(new URL('/sse', server.url)));
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'old' } }))).toBe('old');
    expect(textOf(await client.callTool({ name: 'elicit', arguments: {} }))).toBe('hello Grace');
  });
});

describe('SDK v2 client', () => {
  it('connects over Streamable HTTP (legacy negotiation) and calls a tool', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const client = new ClientV2({ name: 'v2', version: '2.0.0' });
    clients.push(client);
    await client.connect(new StreamableV2(new URL(server.url)));
    const result = await client.callTool({ name: 'echo', arguments: { text: 'v2' } });
    expect(textOf(result)).toBe('v2');
  });

  it('talks 2026-07-28 statelessly when pinned', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const client = new ClientV2({ name: 'v2', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    clients.push(client);
    await client.connect(new StreamableV2(new URL(server.url)));
    const tools = await client.listTools();
    expect(tools.tools.length).toBe(7);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'modern' } });
    expect(textOf(result)).toBe('modern');
  });

  it('connects over legacy HTTP+SSE', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp, { legacySse: true });
    const client = new ClientV2({ name: 'v2', version: '2.0.0' });
    clients.push(client);
    await client.connect(new SSEClientTransportV2(new URL('/sse', server.url)));
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'sse' } }))).toBe('sse');
  });
});
