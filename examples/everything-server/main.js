#!/usr/bin/env node
// The demo as a plain script: Streamable HTTP on http://127.0.0.1:3000/mcp
// (PORT overrides), or stdio with --stdio. `mcpkit demo` (what `npm start`
// runs) serves the same server and is what MCP clients should spawn.
import { StdioTransport } from 'mcpkit';
import { listen } from 'mcpkit/http';
import { configureAuth } from './auth.js';
import { createEverythingServer } from './server.js';

const server = createEverythingServer();

if (process.argv.includes('--stdio')) {
  await server.connect(new StdioTransport());
  console.error('mcpkit everything-server on stdio. Clients spawn: npx mcpkit demo --stdio');
} else {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  // MCPKIT_AUTH_ISSUER turns on OAuth (docs/auth.md); stdio is never subject to it.
  const auth = await configureAuth(server);
  const listener = await listen(server, { port, host, legacySse: true, ...(auth && { auth }) });
  console.error(`mcpkit everything-server listening on ${listener.url}`);
  if (auth) console.error(`  OAuth: tokens from ${auth.authorizationServers[0]} for ${listener.engine.resource}; test_scoped needs mcp:write`);
  console.error(`  Streamable HTTP (every revision, 2024-11-05 … 2026-07-28): ${listener.url}`);
  console.error(`  Try it:  npx @modelcontextprotocol/inspector --transport http --server-url ${listener.url}`);
  const stop = async () => {
    await listener.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
