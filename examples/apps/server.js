// MCP Apps: a tool whose results render in an interactive view (docs/apps.md).
// Run: node examples/apps/server.js  (PORT overrides 3001; MCP_ALLOWED_ORIGINS lets a browser host on another origin call it)
import { readFileSync } from 'node:fs';
import { McpServer } from 'mcpkit';
import { listen } from 'mcpkit/http';

const server = new McpServer({ name: 'apps-example', version: '1.0.0' });
let count = 0;

// The view: plain HTML that talks to the host over postMessage (view.html).
server.uiResource('ui://apps-example/counter', readFileSync(new URL('./view.html', import.meta.url), 'utf8'), {
  name: 'Counter view',
  description: 'Shows the counter with a button that increments it',
  prefersBorder: true,
});

const counter = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };

// The model calls this; hosts with MCP Apps render the result in the view, others show the text.
server.tool('show_counter', {
  description: 'Show the shared counter in an interactive view',
  output: counter,
  app: { resourceUri: 'ui://apps-example/counter' },
}, () => ({ count }));

// Only the view calls this (visibility ["app"]): hosts keep it out of the model's tool list.
server.tool('increment_counter', {
  description: 'Add to the counter (called by the counter view)',
  input: { type: 'object', properties: { by: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['by'] },
  output: counter,
  app: { resourceUri: 'ui://apps-example/counter', visibility: ['app'] },
}, ({ by }) => ({ count: (count += by) }));

const origins = process.env.MCP_ALLOWED_ORIGINS?.split(',').filter(Boolean);
const listener = await listen(server, {
  port: Number(process.env.PORT ?? 3001),
  ...(origins && { security: { allowedOrigins: origins, cors: true } }),
});
console.error(`listening on ${listener.url}`);

process.once('SIGTERM', () => void listener.close({ graceMs: 1000 }));
