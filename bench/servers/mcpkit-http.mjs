// mcpkit over Streamable HTTP on node:http. One handler serves legacy sessions
// and 2026-07-28 requests; the legacy stateless mode sets `stateless: true`. The
// memory section opens 1,020 sessions from one address: above the per-client default.
import http from 'node:http';
import { createNodeHandler } from '../../dist/http.js'; // mcpkit/http
import { host, port, mode, installMemoryProbe } from './_common.mjs';
import { createServer } from './mcpkit-server.mjs';

installMemoryProbe();
const server = createServer();
http.createServer(createNodeHandler(server, mode === 'stateless' ? { stateless: true } : { limits: { maxSessionsPerClient: 2_000 } })).listen(port, host);
