// Official SDK v2 (@modelcontextprotocol/server 2.4.0 + @modelcontextprotocol/node 2.1.2)
// over Streamable HTTP on plain node:http with the localhost Host/Origin guards,
// as the node adapter's README shows.
// - modern and stateless: createMcpHandler(createServer) through toNodeHandler — it
//   serves 2026-07-28 requests and the legacy stateless fallback.
// - session: the sessionful legacy wiring, one NodeStreamableHTTPServerTransport
//   per session kept in a map keyed by Mcp-Session-Id.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createMcpHandler } from '@modelcontextprotocol/server';
import {
  NodeStreamableHTTPServerTransport,
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { host, port, mode, installMemoryProbe } from './_common.mjs';
import { createServer } from './sdk2-server.mjs';

installMemoryProbe();


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
      await createServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  };
} else {
  handle = toNodeHandler(createMcpHandler(createServer));
}

http
  .createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void handle(req, res);
  })
  .listen(port, host);
