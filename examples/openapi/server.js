// An HTTP API described by OpenAPI, served as MCP tools. Run: node examples/openapi/server.js  (PORT overrides 3002)
// The todo API itself runs here too (on a free port) so the example needs nothing else.
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { McpServer } from 'mcpkit';
import { listen } from 'mcpkit/http';
import { addOpenApiTools } from 'mcpkit/openapi';

const todos = [{ id: 1, title: 'Read docs/openapi.md', done: false }];
const api = http.createServer((req, res) => {
  if (req.headers['x-api-key'] !== 'demo-key') return void res.writeHead(401).end();
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const url = new URL(req.url, 'http://api');
    const reply = (status, value) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (url.pathname === '/v1/todos' && req.method === 'GET') {
      const done = url.searchParams.get('done');
      return reply(200, done === null ? todos : todos.filter((t) => String(t.done) === done));
    }
    if (url.pathname === '/v1/todos' && req.method === 'POST') {
      const todo = { id: todos.length + 1, done: false, ...JSON.parse(body) };
      todos.push(todo);
      return reply(201, todo);
    }
    const match = /^\/v1\/todos\/(\d+)$/.exec(url.pathname);
    const at = match === null ? -1 : todos.findIndex((t) => t.id === Number(match[1]));
    if (req.method === 'DELETE' && at >= 0) return void (todos.splice(at, 1), res.writeHead(204).end());
    reply(404, { message: 'no such todo' });
  });
});
await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${api.address().port}/v1`;

const server = new McpServer({ name: 'todos', version: '1.0.0' });
const tools = await addOpenApiTools(server, fileURLToPath(new URL('todos.yaml', import.meta.url)), {
  baseUrl, // every request goes to this origin, whatever the document's servers say
  credentials: { key: () => process.env.TODOS_API_KEY ?? 'demo-key' }, // by security scheme name
  exclude: { methods: ['delete'] }, // keep it read/append only
});

const listener = await listen(server, { port: Number(process.env.PORT ?? 3002), host: '127.0.0.1' });
console.error(`${tools.map((t) => t.name).join(', ')} → ${baseUrl}`);
console.error(`listening on ${listener.url}`);

process.once('SIGTERM', async () => {
  await listener.close();
  api.close();
});
