// The tmcp bench server (zod adapter, tool.text results); shared by the stdio and HTTP variants.
import { McpServer } from 'tmcp';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { tool } from 'tmcp/utils';
import { z } from 'zod';
import { fillerNames } from './_common.mjs';

export function createServer() {
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
  return server;
}
