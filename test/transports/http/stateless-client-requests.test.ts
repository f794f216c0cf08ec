/**
 * On the shared stateless endpoint (stateless: true, mountMcpHttp's default) a legacy client's
 * initialize is not kept, so ctx.elicit/sample/listRoots cannot work there. The error must say
 * so, not claim that the client "did not declare" a capability it declared in initialize.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { McpServer } from '../../../src/index.js';

let listener: McpHttpListener;
beforeAll(async () => {
  const server = new McpServer({ name: 'stateless', version: '1.0.0' });
  server.tool('ask', {}, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return answer.action;
  });
  server.tool('roots', {}, async (_args, ctx) => String((await ctx.listRoots()).roots.length));
  listener = await listen(server, { port: 0, stateless: true, keepAliveMs: 0 });
});
afterAll(async () => {
  await listener.close();
});

async function rpc(id: number, method: string, params: Record<string, unknown>): Promise<{ error?: { code: number; message: string } }> {
  const response = await fetch(listener.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return (await response.json()) as { error?: { code: number; message: string } };
}

it.each(['ask', 'roots'])('%s: a legacy client on a stateless endpoint is told to use sessions or 2026-07-28', async (tool) => {
  await rpc(1, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: {}, roots: {} },
    clientInfo: { name: 'raw', version: '1' },
  });
  const { error } = await rpc(2, 'tools/call', { name: tool, arguments: {} });
  expect(error?.message).toMatch(/stateless endpoint/);
  expect(error?.message).toMatch(/stateless: false/);
  expect(error?.message).not.toMatch(/did not declare/);
});
