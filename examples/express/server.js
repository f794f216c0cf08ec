// Mount MCP on an existing Express app (the second seed's API). Run: node examples/express/server.js
import express from 'express';
import { assembleMcpServer } from 'mcpkit';
import { mountMcpHttp } from 'mcpkit/express';

// Namespaced providers: tools are served as `${namespace}_${name}`.
const notes = new Map();
const notesProvider = {
  namespace: 'notes',
  tools: [
    {
      name: 'add',
      description: 'Store a note',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      handler: async (args) => {
        if (typeof args?.text !== 'string') return { content: [{ type: 'text', text: 'text must be a string' }], isError: true };
        notes.set(notes.size + 1, args.text);
        return { content: [{ type: 'text', text: `Stored note ${notes.size}` }] };
      },
    },
    {
      name: 'list',
      description: 'List stored notes',
      inputSchema: { type: 'object', properties: {} },
      handler: async () => ({ content: [{ type: 'text', text: JSON.stringify(Object.fromEntries(notes)) }] }),
    },
  ],
};

const app = express();
// No express.json() in front: mountMcpHttp reads the body itself, under its own maxBodyBytes, and
// answers bad JSON with a JSON-RPC error. (With a parser in front it still works: docs/http.md.)
app.get('/health', (_req, res) => res.send('ok'));
mountMcpHttp(app, assembleMcpServer([notesProvider], { name: 'notes', version: '1.0.0' }));

const listener = app.listen(Number(process.env.PORT ?? 3002), '127.0.0.1', () => {
  console.error(`listening on http://127.0.0.1:${listener.address().port}/mcp`);
});
process.once('SIGTERM', () => listener.close());
