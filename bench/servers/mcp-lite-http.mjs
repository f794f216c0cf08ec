// mcp-lite 0.10 over Streamable HTTP: Hono on @hono/node-server, as its README
// shows. Stateless = no adapters (its default); session = InMemorySessionAdapter
// (its single-server production setup). No 2026-07-28 support, no stdio.
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { McpServer, StreamableHttpTransport, InMemorySessionAdapter } from 'mcp-lite';
import { z } from 'zod';
import { host, port, mode, fillerNames, installMemoryProbe, unsupported } from './_common.mjs';

if (mode === 'modern') unsupported('mcp-lite', 'the 2026-07-28 protocol');
installMemoryProbe();
const mcp = new McpServer({ name: 'bench', version: '1.0.0', schemaAdapter: (schema) => z.toJSONSchema(schema) });
mcp.tool('echo', {
  description: 'Echo the text back',
  inputSchema: z.object({ text: z.string() }),
  handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
});
mcp.tool('add', {
  description: 'Add two numbers',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
});
for (const name of fillerNames) {
  mcp.tool(name, {
    description: `Filler tool ${name}`,
    inputSchema: z.object({ n: z.number() }),
    handler: ({ n }) => ({ content: [{ type: 'text', text: String(n) }] }),
  });
}

const transport = new StreamableHttpTransport(
  mode === 'session' ? { sessionAdapter: new InMemorySessionAdapter({ maxEventBufferSize: 1024 }) } : {},
);
const httpHandler = transport.bind(mcp);
const app = new Hono();
app.all('/mcp', (c) => httpHandler(c.req.raw));
serve({ fetch: app.fetch, port, hostname: host });
