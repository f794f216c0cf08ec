// Streamable HTTP on plain node:http. Run: node examples/http-node/server.js  (PORT overrides 3001)
import http from 'node:http';
import { McpServer } from 'mcpkit';
import { createNodeHandler } from 'mcpkit/http';

const server = new McpServer({ name: 'http-node-example', version: '1.0.0' });
server.tool('add', {
  description: 'Add two numbers',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
}, ({ a, b }) => ({ sum: a + b }));

// The handler checks Host/Origin (DNS rebinding) and enforces the body, batch and session limits.
const handler = createNodeHandler(server, { path: '/mcp' });
const httpServer = http.createServer(handler);
httpServer.listen(Number(process.env.PORT ?? 3001), '127.0.0.1', () => {
  const { port } = httpServer.address();
  console.error(`listening on http://127.0.0.1:${port}/mcp`);
});

process.once('SIGTERM', async () => {
  await handler.close({ graceMs: 1000 });
  httpServer.close();
});
