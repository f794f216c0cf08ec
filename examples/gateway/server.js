// A server of your own with an upstream MCP server mounted in it: the official memory server,
// spawned per session, served as memory_<tool> beside a local tool. Run: node examples/gateway/server.js
// (PORT overrides 3002). The same without code: mcpkit proxy --config examples/gateway/mcp.json
import { fileURLToPath } from 'node:url';
import { McpServer } from 'mcpkit';
import { listen } from 'mcpkit/http';
import { createProxy } from 'mcpkit/gateway';

// Its package names a main file it does not ship: resolve its package.json and take the bin.
const memoryServer = fileURLToPath(new URL('dist/index.js', import.meta.resolve('@modelcontextprotocol/server-memory/package.json')));

const server = new McpServer({ name: 'gateway-example', version: '1.0.0' });
server.tool('hello', { description: 'A tool of this server' }, () => 'Hello from the gateway itself');

const memory = createProxy({ command: process.execPath, args: [memoryServer] }, { name: 'memory', onWarning: (message) => console.error(message) });
server.mount(memory, { namespace: 'memory' });
// Fetch the upstream's lists now: the first request pays no list call.
await memory.ready();
// What the gateway keeps per downstream session (the upstream process) ends with the session:
// the server tells the mounted proxy through McpProvider.sessionClosed.

const listener = await listen(server, { port: Number(process.env.PORT ?? 3002) });
console.error(`listening on ${listener.url}`);

process.once('SIGTERM', async () => {
  await listener.close();
  await memory.close();
});
