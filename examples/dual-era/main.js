#!/usr/bin/env node
// `node examples/dual-era/main.js` serves Streamable HTTP on http://127.0.0.1:3000/mcp
// (PORT overrides) for every revision at once; `--stdio` serves stdio instead.
// Run `npm run build` first: `mcpkit` resolves to this package's dist/.
import { StdioTransport } from 'mcpkit';
import { listen } from 'mcpkit/http';
import { createDualEraServer } from './server.js';

// Several instances behind one load balancer must share this key (at least 32 bytes),
// or a 2026-07-28 retry that lands on another instance is refused.
const secret = process.env.MCP_REQUEST_STATE_SECRET;
const server = createDualEraServer(secret === undefined ? {} : { requestState: { keys: [secret] } });

if (process.argv.includes('--stdio')) {
  await server.connect(new StdioTransport());
  console.error('dual-era example on stdio');
} else {
  const listener = await listen(server, { port: Number(process.env.PORT ?? 3000) });
  console.error(`dual-era example listening on ${listener.url}`);
  const stop = async () => {
    await listener.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
