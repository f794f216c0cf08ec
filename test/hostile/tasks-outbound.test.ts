/**
 * Server→client requests (elicitation, sampling, roots) awaiting an answer on
 * a legacy session are bounded in count and bytes: a client that never
 * answers gets a clear -32603 on the request that would exceed the limit,
 * and another session is unaffected. Real HTTP server with the official v1
 * SDK client, and the stdio fixture process.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { killAll, spawnFixture } from '../support/process.js';
import { DEFAULT_REVISION } from '../support/wire.js';
import { sdkRefusal, type Json } from './tasks-support.js';

let listener: McpHttpListener;
const clients: Client[] = [];

beforeAll(async () => {
  const server = new McpServer({ name: 'outbound', version: '1.0.0', limits: { maxPendingClientRequests: 2, maxPendingClientRequestBytes: 2000 } });
  server.tool('ask', { input: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] } }, async ({ size }, ctx) => {
    const answer = await ctx.elicit({ message: 'm'.repeat(Number(size)), requestedSchema: { type: 'object', properties: {} } });
    return answer.action;
  });
  listener = await listen(server, { port: 0, host: '127.0.0.1', keepAliveMs: 0 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await killAll();
});
afterAll(() => listener.close());

/** A v1 client that declares elicitation and answers only when `answer` is called. */
async function silentClient(): Promise<{ client: Client; asked: () => number; answerAll: () => void }> {
  const client = new Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const waiting: (() => void)[] = [];
  let asked = 0;
  client.setRequestHandler(ElicitRequestSchema, () => {
    asked++;
    return new Promise((resolve) => waiting.push(() => resolve({ action: 'decline' })));
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  clients.push(client);
  return { client, asked: () => asked, answerAll: () => waiting.splice(0).forEach((answer) => answer()) };
}


describe('pending server→client requests per legacy session', () => {
  it('the request over the count limit fails with -32603 and is never sent; answering makes room', async () => {
    const { client, asked, answerAll } = await silentClient();
    const first = client.callTool({ name: 'ask', arguments: { size: 1 } });
    const second = client.callTool({ name: 'ask', arguments: { size: 1 } });
    await expect.poll(asked).toBe(2);
    expect(await sdkRefusal(client.callTool({ name: 'ask', arguments: { size: 1 } }))).toEqual({
      code: -32603,
      message: 'MCP error -32603: Too many requests to the client: this session already has 2 awaiting an answer (the limit is 2); elicitation/create was not sent',
      data: { limit: 'maxPendingClientRequests' },
    });
    expect(asked()).toBe(2);
    // Another session has its own allowance.
    const other = await silentClient();
    const third = other.client.callTool({ name: 'ask', arguments: { size: 1 } });
    await expect.poll(other.asked).toBe(1);
    answerAll();
    other.answerAll();
    expect(await Promise.all([first, second, third])).toEqual(Array(3).fill({ content: [{ type: 'text', text: 'decline' }] }));
    const again = client.callTool({ name: 'ask', arguments: { size: 1 } });
    await expect.poll(asked).toBe(3);
    answerAll();
    expect(await again).toEqual({ content: [{ type: 'text', text: 'decline' }] });
  });

  it('the request over the byte limit fails with -32603 naming its size', async () => {
    const { client, asked, answerAll } = await silentClient();
    const first = client.callTool({ name: 'ask', arguments: { size: 1500 } });
    await expect.poll(asked).toBe(1);
    const params = { message: 'm'.repeat(1200), requestedSchema: { type: 'object', properties: {} } };
    expect(await sdkRefusal(client.callTool({ name: 'ask', arguments: { size: 1200 } }))).toEqual({
        code: -32603,
        message: `MCP error -32603: Too many requests to the client: this session's requests awaiting an answer would hold more than 2000 bytes; elicitation/create (${JSON.stringify(params).length} bytes) was not sent`,
        data: { limit: 'maxPendingClientRequestBytes' },
      });
    answerAll();
    expect(await first).toEqual({ content: [{ type: 'text', text: 'decline' }] });
  });
});

describe('pending server→client requests over stdio', () => {
  it('the 65th unanswered elicitation of a session (default limit) fails with -32603', async () => {
    const server = spawnFixture();
    server.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: DEFAULT_REVISION, capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } });
    await server.lines.waitFor(1);
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (let i = 1; i <= 64; i++) server.send({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'confirm', arguments: {} } });
    await server.lines.waitFor(65);
    server.send({ jsonrpc: '2.0', id: 65, method: 'tools/call', params: { name: 'confirm', arguments: {} } });
    await server.lines.waitFor(66);
    const messages = server.lines.messages as Json[];
    expect(messages.slice(1, 65).every((m) => m['method'] === 'elicitation/create')).toBe(true);
    expect(messages[65]).toEqual({
      jsonrpc: '2.0',
      id: 65,
      error: { code: -32603, message: 'Too many requests to the client: this session already has 64 awaiting an answer (the limit is 64); elicitation/create was not sent', data: { limit: 'maxPendingClientRequests' } },
    });
  });
});
