/**
 * mcpkit/client against a server built with the official SDK v2 (@modelcontextprotocol/server
 * 2.4.0, createMcpHandler) over HTTP, in both eras: `auto` speaks 2026-07-28 (server/discover,
 * per-request _meta, MRTR answered by the same handlers), a pinned 2025-11-25 the legacy path.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, inputRequired, acceptedContent, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { listenFetch } from '../support/fetch-on-node.js';

let server: http.Server;
let url: string;

function factory(): McpServer {
  const mcp = new McpServer({ name: 'sdk-v2-server', version: '2.4.0' });
  mcp.registerTool('add', { description: 'a + b', inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) }, ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
    structuredContent: { sum: a + b },
  }));
  mcp.registerTool('confirm', { description: 'asks first', inputSchema: z.object({ what: z.string() }) }, ({ what }, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'ok');
    if (answer === undefined) return inputRequired({ inputRequests: { ok: inputRequired.elicit({ message: `Do ${what}?`, requestedSchema: z.object({ ok: z.boolean() }) }) } });
    return { content: [{ type: 'text', text: `confirmed ${what}: ${JSON.stringify(answer)}` }] };
  });
  mcp.registerPrompt('greet', { description: 'a greeting', argsSchema: z.object({ name: z.string() }) }, ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }] }));
  mcp.registerResource('readme', 'file:///readme.md', { mimeType: 'text/markdown' }, (uri) => ({ contents: [{ uri: uri.href, text: '# readme' }] }));
  return mcp;
}

beforeAll(async () => {
  const handler = createMcpHandler(factory);
  server = await listenFetch(handler);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe.each([
  ['auto', 'modern'],
  ['2025-11-25', 'legacy'],
] as const)('an SDK v2 server, protocolVersion %s', (protocolVersion, era) => {
  it(`negotiates ${era}; lists, calls (outputSchema checked), reads, gets; elicitation answers the server`, async () => {
    const asked: string[] = [];
    const client = new Client({
      protocolVersion,
      elicitation: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { ok: true } };
      },
    });
    await client.connect(new StreamableHttpTransport(url));
    try {
      expect(client.era).toBe(era);
      expect(client.serverInfo?.name).toBe('sdk-v2-server');
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(['add', 'confirm']);
      const sum = await client.callTool('add', { a: 2, b: 3 });
      expect(sum.structuredContent).toEqual({ sum: 5 });
      expect((await client.readResource('file:///readme.md')).contents[0]).toMatchObject({ text: '# readme' });
      expect((await client.getPrompt('greet', { name: 'Ada' })).messages[0]?.content).toMatchObject({ text: 'Hello Ada' });
      if (era === 'modern') {
        // MRTR: the InputRequiredResult runs the elicitation handler and the call is retried.
        const confirmed = await client.callTool('confirm', { what: 'deploy' });
        expect(JSON.stringify(confirmed.content)).toContain('confirmed deploy: {\\"ok\\":true}');
        expect(asked).toEqual(['Do deploy?']);
      }
    } finally {
      await client.close();
    }
  }, 30_000);
});
