// The fastmcp bench server (addTool with zod parameters); shared by the stdio and HTTP variants.
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import { fillerNames } from './_common.mjs';

export function createServer() {
  const server = new FastMCP({ name: 'bench', version: '1.0.0' });
  server.addTool({ name: 'echo', description: 'Echo the text back', parameters: z.object({ text: z.string() }), execute: async ({ text }) => text });
  server.addTool({ name: 'add', description: 'Add two numbers', parameters: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => String(a + b) });
  for (const name of fillerNames) {
    server.addTool({ name, description: `Filler tool ${name}`, parameters: z.object({ n: z.number() }), execute: async ({ n }) => String(n) });
  }
  return server;
}
