// fastmcp 4.20 over Streamable HTTP (its httpStream transport): sessions by default,
// `stateless: true` for the legacy stateless mode. No 2026-07-28 support.
import { host, port, mode, installMemoryProbe, unsupported } from './_common.mjs';
import { createServer } from './fastmcp-server.mjs';

if (mode === 'modern') unsupported('fastmcp', 'the 2026-07-28 protocol');
installMemoryProbe();
const server = createServer();
await server.start({ transportType: 'httpStream', httpStream: { port, host, endpoint: '/mcp', stateless: mode === 'stateless' } });
