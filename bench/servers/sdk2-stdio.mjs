// Official SDK v2 (@modelcontextprotocol/server 2.4.0) over stdio: serveStdio with a
// server factory, as its docs show (serves 2025-era and 2026-07-28 openings).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { fillerNames, installMemoryProbe } from './_common.mjs';

installMemoryProbe();
serveStdio(() => {
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
});
