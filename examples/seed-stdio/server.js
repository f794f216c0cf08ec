// The first seed's example, as written there (with Mcp casing): registries + StdioTransport.
import { McpServer, StdioTransport } from 'mcpkit';

const server = new McpServer({
  name: 'my-aidex-mcp-server',
  version: '0.1.0',
  transport: new StdioTransport(),
});

server.tools.register({
  name: 'echo',
  description: 'Echoes the input back',
  async execute(input) {
    return { content: [{ type: 'text', text: input.text }] };
  },
});

await server.start();
// A client sending {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}
// over stdio now gets back {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}.
