// tmcp 1.20 over stdio with the zod adapter, as its README shows.
import { McpServer } from 'tmcp';
import { StdioTransport } from '@tmcp/transport-stdio';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { tool } from 'tmcp/utils';
import { z } from 'zod';
import { fillerNames, installMemoryProbe } from './_common.mjs';

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
new StdioTransport(server).listen();
