// Official SDK v2 (@modelcontextprotocol/server 2.4.0 + @modelcontextprotocol/node 2.1.2)
// over Streamable HTTP on plain node:http with the localhost Host/Origin guards,
// as the node adapter's README shows.
// - modern and stateless: createMcpHandler(factory) through toNodeHandler — it
//   serves 2026-07-28 requests and the legacy stateless fallback.
// - session: the sessionful legacy wiring, one NodeStreamableHTTPServerTransport
//   per session kept in a map keyed by Mcp-Session-Id.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import {
  NodeStreamableHTTPServerTransport,
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { z } from 'zod';
import { host, port, mode, fillerNames, installMemoryProbe } from './_common.mjs';

installMemoryProbe();

function factory() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('add', { description: 'Add two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  for (const name of fillerNames) {
    server.registerTool(name, { description: `Filler tool ${name}`, inputSchema: z.object({ n: z.number() }) }, async ({ n }) => ({
      content: [{ type: 'text', text: String(n) }],
    }));
  }
  return server;
}

const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
let handle;

if (mode === 'session') {
  const transports = new Map();
  handle = async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (sessionId && !transport) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
      );
      return;
    }
    if (!transport) {
      const created = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      await factory().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  };
} else {
  handle = toNodeHandler(createMcpHandler(factory));
}

http
  .createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void handle(req, res);
  })
  .listen(port, host);
