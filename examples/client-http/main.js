#!/usr/bin/env node
// mcpkit/client over Streamable HTTP with callbacks: the server may ask the client's "user"
// (elicitation), "model" (sampling) and roots. On 2026-07-28 those questions arrive as an
// InputRequiredResult and the request is retried with the answers; on a legacy session as requests.
// Calling code is the same for both eras.
//   node examples/client-http/main.js [url] [protocolVersion]   (default http://127.0.0.1:3000/mcp, auto)
import { Client, StreamableHttpTransport } from 'mcpkit/client';

const url = process.argv[2] ?? 'http://127.0.0.1:3000/mcp';
const protocolVersion = process.argv[3] ?? 'auto';

const client = new Client({
  clientInfo: { name: 'example-http-client', version: '1.0.0' },
  protocolVersion,
  // A real client would show a form; the answer is checked against requestedSchema.
  elicitation: (params) => ({ action: 'accept', content: params.mode === 'url' ? undefined : { name: 'Ada' } }),
  // A real client would ask its model (with the user's approval).
  sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'example-model' }),
  roots: [{ uri: 'file:///workspace', name: 'workspace' }],
});
await client.connect(new StreamableHttpTransport(url));
console.log(`connected to ${client.serverInfo?.name} (${client.protocolVersion}, ${client.era})`);

for (const name of ['test_input_required_result_elicitation', 'test_input_required_result_sampling', 'test_input_required_result_list_roots']) {
  const result = await client.callTool(name, {});
  console.log(`${name}: ${result.content[0]?.text}`);
}
await client.close();
