// One server for bench/runtimes.mjs on Bun or Deno: `--lib mcpkit` serves the bench McpServer through
// createFetchHandler (mcpkit/http); `--lib bare` is the runtime's own server answering the same JSON-RPC
// echo by hand (JSON.parse + JSON.stringify), the floor the runtime itself costs.
/* global Bun, Deno */
import { createFetchHandler } from '../../dist/http.js';
import { createServer } from './mcpkit-server.mjs';

const args = typeof Bun !== 'undefined' ? Bun.argv.slice(2) : Deno.args;
const option = (name) => args[args.indexOf(`--${name}`) + 1];
const port = Number(option('port'));
const lib = option('lib');

async function bare(request) {
  const message = JSON.parse(await request.text());
  const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: message.params.arguments.text }] } });
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}

const handler = lib === 'bare' ? bare : createFetchHandler(createServer());
if (typeof Bun !== 'undefined') Bun.serve({ hostname: '127.0.0.1', port, fetch: (request, server) => handler(request, server) });
else Deno.serve({ hostname: '127.0.0.1', port, onListen: () => undefined }, (request, info) => handler(request, info));
