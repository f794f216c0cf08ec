// What the physical-limit references answer: no MCP logic beyond the methods the driver sends.
export function answer(msg) {
  switch (msg.method) {
    case 'initialize':
      return {
        protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'reference', version: '1.0.0' },
      };
    case 'tools/call': {
      const { name, arguments: args } = msg.params;
      const text = name === 'echo' ? args.text : String(args.a + args.b);
      return { content: [{ type: 'text', text }] };
    }
    case 'tools/list':
      return { tools: [] };
    default:
      return {};
  }
}
