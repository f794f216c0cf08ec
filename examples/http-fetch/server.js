// A Web-standard fetch handler: `export default { fetch }` is what Cloudflare Workers,
// Bun (`Bun.serve(handler)`) and Deno (`Deno.serve(handler.fetch)`) expect; Hono can
// mount `handler.fetch` on a route. Stateless, so any instance can answer any request.
import { McpServer } from 'mcpkit';
import { createFetchHandler } from 'mcpkit/http';

const server = new McpServer({ name: 'fetch-example', version: '1.0.0' });
server.tool('greet', {
  description: 'Greet someone',
  input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
}, ({ name }) => `Hello, ${name}!`);

const fetch = createFetchHandler(server, {
  stateless: true,
  // On a public host, list the names you serve (the default allows only loopback names).
  security: { allowedHosts: ['localhost', '127.0.0.1', 'example.workers.dev'] },
});

export default { fetch };
