// Official SDK v1 (@modelcontextprotocol/sdk 1.32.2) over stdio, as its docs show.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { fillerNames, installMemoryProbe } from './_common.mjs';

installMemoryProbe();
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
await server.connect(new StdioServerTransport());
