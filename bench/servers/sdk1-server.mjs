// The SDK v1 bench server (McpServer.registerTool with zod shapes); shared by the stdio and HTTP variants.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { fillerNames } from './_common.mjs';

export function createServer() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the text back', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  for (const name of fillerNames) {
    server.registerTool(name, { description: `Filler tool ${name}`, inputSchema: { n: z.number() } }, async ({ n }) => ({
      content: [{ type: 'text', text: String(n) }],
    }));
  }
  return server;
}
