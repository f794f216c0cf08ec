#!/usr/bin/env node
// mcpkit/client over stdio: spawn a server (the demo, unless a command is given), list its tools,
// call one with progress, and shut the child down gracefully (stdin close, then SIGTERM, then SIGKILL).
//   node examples/client-stdio/main.js [command args…]
import { Client, StdioClientTransport } from 'mcpkit/client';

const [command, ...args] = process.argv.length > 2 ? process.argv.slice(2) : [process.execPath, 'examples/everything-server/main.js', '--stdio'];

const client = new Client({ clientInfo: { name: 'example-stdio-client', version: '1.0.0' } });
await client.connect(new StdioClientTransport({ command, args, onStderr: (text) => process.stderr.write(`[server] ${text}`) }));
console.log(`connected to ${client.serverInfo?.name} (${client.protocolVersion}, ${client.era})`);

const names = [];
for await (const tool of client.tools()) names.push(tool.name);
console.log(`${names.length} tools`);

const result = await client.callTool('test_tool_with_progress', {}, { onProgress: ({ progress, total }) => console.log(`progress ${progress}/${total}`) });
console.log(`result: ${result.content[0]?.text}`);

await client.close();
