#!/usr/bin/env node
// A command-line MCP client for a protected server: on the 401 it discovers the authorization
// server, registers, prints the authorization URL and waits for the browser's redirect on
// 127.0.0.1, then lists the tools and calls the one named (if any). Tokens stay in memory.
//   node examples/oauth-client/main.js https://mcp.example.com/mcp [tool]
import { Client, McpAuthError, StreamableHttpTransport, loopbackAuthorizer, oauth } from 'mcpkit/client';

const [url, tool] = process.argv.slice(2);
if (!url) {
  console.error('usage: node examples/oauth-client/main.js <server-url> [tool]');
  process.exit(2);
}

const authorizer = loopbackAuthorizer({ open: (authorizationUrl) => console.error(`Open this URL to authorize:\n  ${authorizationUrl.href}`) });
const client = new Client({ clientInfo: { name: 'oauth-example', version: '1.0.0' }, requestTimeoutMs: 300_000 });
try {
  await client.connect(new StreamableHttpTransport(url, { auth: oauth({ authorizer, clientName: 'mcpkit oauth example' }) }));
  const { tools } = await client.listTools();
  console.log(JSON.stringify({ tools: tools.map((t) => t.name) }));
  if (tool) console.log(JSON.stringify(await client.callTool(tool, {})));
} catch (error) {
  // McpAuthError messages name the host and the field, never a token.
  console.error(error instanceof McpAuthError ? `authorization failed (${error.kind}): ${error.message}` : error);
  process.exitCode = 1;
} finally {
  await client.close();
  await authorizer.close();
}
