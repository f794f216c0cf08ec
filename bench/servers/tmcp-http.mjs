// tmcp 1.20 over Streamable HTTP: HttpTransport on node:http through
// @remix-run/node-fetch-server, as the transport's README shows. One transport
// serves legacy sessions and 2026-07-28 per-request calls; tmcp has no
// documented legacy stateless mode.
import http from 'node:http';
import { McpServer } from 'tmcp';
import { HttpTransport } from '@tmcp/transport-http';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { tool } from 'tmcp/utils';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { z } from 'zod';
import { host, port, mode, fillerNames, installMemoryProbe, unsupported } from './_common.mjs';

if (mode === 'stateless') unsupported('tmcp', 'a legacy stateless mode');
installMemoryProbe();
const server = new McpServer(
  { name: 'bench', version: '1.0.0', description: 'bench server' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
server.tool({ name: 'echo', description: 'Echo the text back', schema: z.object({ text: z.string() }) }, async ({ text }) => tool.text(text));
server.tool({ name: 'add', description: 'Add two numbers', schema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) =>
  tool.text(String(a + b)),
);
for (const name of fillerNames) {
  server.tool({ name, description: `Filler tool ${name}`, schema: z.object({ n: z.number() }) }, async ({ n }) => tool.text(String(n)));
}

const transport = new HttpTransport(server, { path: '/mcp' });
http
  .createServer(
    createRequestListener(async (request) => {
      const response = await transport.respond(request);
      return response ?? new Response(null, { status: 404 });
    }),
  )
  .listen(port, host);
