// tmcp 1.20 over Streamable HTTP: HttpTransport on node:http through
// @remix-run/node-fetch-server, as the transport's README shows. One transport
// serves legacy sessions and 2026-07-28 per-request calls; tmcp has no
// documented legacy stateless mode.
import http from 'node:http';
import { HttpTransport } from '@tmcp/transport-http';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { host, port, mode, installMemoryProbe, unsupported } from './_common.mjs';
import { createServer } from './tmcp-server.mjs';

if (mode === 'stateless') unsupported('tmcp', 'a legacy stateless mode');
installMemoryProbe();
const server = createServer();

const transport = new HttpTransport(server, { path: '/mcp' });
http
  .createServer(
    createRequestListener(async (request) => {
      const response = await transport.respond(request);
      return response ?? new Response(null, { status: 404 });
    }),
  )
  .listen(port, host);
