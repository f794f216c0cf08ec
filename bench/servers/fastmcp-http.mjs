// fastmcp 4.20 over Streamable HTTP (its httpStream transport): sessions by default,
// `stateless: true` for the legacy stateless mode. No 2026-07-28 support.
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import { host, port, mode, fillerNames, installMemoryProbe, unsupported } from './_common.mjs';

if (mode === 'modern') unsupported('fastmcp', 'the 2026-07-28 protocol');
installMemoryProbe();
const server = new FastMCP({ name: 'bench', version: '1.0.0' });
server.addTool({ name: 'echo', description: 'Echo the text back', parameters: z.object({ text: z.string() }), execute: async ({ text }) => text });
server.addTool({ name: 'add', description: 'Add two numbers', parameters: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => String(a + b) });
for (const name of fillerNames) {
  server.addTool({ name, description: `Filler tool ${name}`, parameters: z.object({ n: z.number() }), execute: async ({ n }) => String(n) });
}
await server.start({ transportType: 'httpStream', httpStream: { port, host, endpoint: '/mcp', stateless: mode === 'stateless' } });
