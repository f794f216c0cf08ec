// The mcpkit bench server, written as the README shows it; shared by the stdio and HTTP variants.
import { McpServer } from '../../dist/index.js';
import { fillerNames, shaped } from './_common.mjs';

/** `config` adds to the server's options (the cluster bench passes createRedisState's `server`). */
export function createServer(config = {}) {
  const server = new McpServer({ name: 'bench', version: '1.0.0', ...config });
  server.tool('echo', { description: 'Echo the text back', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, shaped(({ text }) => text));
  server.tool('add', { description: 'Add two numbers', input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }, shaped(({ a, b }) => String(a + b)));
  for (const name of fillerNames) {
    server.tool(name, { description: `Filler tool ${name}`, input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }, ({ n }) => String(n));
  }
  return server;
}
