// Official SDK v1 (@modelcontextprotocol/sdk 1.32.2) over Streamable HTTP, following
// its server guide: createMcpExpressApp (DNS-rebinding protection for localhost),
// stateless = a fresh server + transport per request, session = transports
// kept in a map keyed by Mcp-Session-Id. v1 has no 2026-07-28 support.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { host, port, mode, fillerNames, installMemoryProbe, unsupported } from './_common.mjs';

if (mode === 'modern') unsupported('sdk1', 'the 2026-07-28 protocol');
installMemoryProbe();

function getServer() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the text back', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  for (const name of fillerNames) {
    server.registerTool(name, { description: `Filler tool ${name}`, inputSchema: { n: z.number() } }, async ({ n }) => ({
      content: [{ type: 'text', text: String(n) }],
    }));
  }
  return server;
}

const app = createMcpExpressApp({ host });

if (mode === 'stateless') {
  app.post('/mcp', async (req, res) => {
    const server = getServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
} else {
  const transports = {};
  app.post('/mcp', async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    let transport;
    if (sessionId && transports[sessionId]) {
      transport = transports[sessionId];
    } else if (!sessionId && isInitializeRequest(req.body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports[id] = transport;
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) delete transports[transport.sessionId];
      };
      await getServer().connect(transport);
    } else {
      res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
      return;
    }
    await transport.handleRequest(req, res, req.body);
  });
  const sessionRequest = async (req, res) => {
    const transport = transports[req.headers['mcp-session-id']];
    if (!transport) {
      res.status(400).send('Invalid or missing session ID');
      return;
    }
    await transport.handleRequest(req, res);
  };
  app.get('/mcp', sessionRequest);
  app.delete('/mcp', sessionRequest);
}

app.listen(port, host);
