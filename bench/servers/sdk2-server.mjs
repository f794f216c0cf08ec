// The SDK v2 bench server (McpServer.registerTool with zod objects); shared by the stdio and HTTP variants.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { fillerNames } from './_common.mjs';

export function createServer() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('add', { description: 'Add two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  for (const name of fillerNames) {
    server.registerTool(name, { description: `Filler tool ${name}`, inputSchema: z.object({ n: z.number() }) }, async ({ n }) => ({
      content: [{ type: 'text', text: String(n) }],
    }));
  }
  return server;
}
