// The 10 MB payload bench's servers (bench/payload.mjs): a resource and a tool that answer
// `--mb` MiB of text, over `--transport stdio|http`, from mcpkit (`--lib mcpkit`) or from a bare
// reference that sends the same bytes with no MCP logic (`--lib reference`). HTTP is legacy stateless.
import http from 'node:http';
import { arg, host, port } from './_common.mjs';

const lib = arg('lib', 'mcpkit');
const transport = arg('transport', 'stdio');
// ASCII without JSON escapes: what is measured is moving bytes, not escaping them.
const text = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(Math.ceil((Number(arg('mb', '10')) * 1024 * 1024) / 36)).slice(0, Number(arg('mb', '10')) * 1024 * 1024);

if (lib === 'mcpkit') {
  const { McpServer, StdioTransport } = await import('../../dist/index.js');
  const server = new McpServer({ name: 'payload', version: '1.0.0' });
  server.resource('big://data', { mimeType: 'text/plain' }, () => text);
  server.tool('big', { description: 'A big result', input: { type: 'object', properties: {} } }, () => text);
  if (transport === 'stdio') await server.connect(new StdioTransport());
  else {
    const { createNodeHandler } = await import('../../dist/http.js');
    http.createServer(createNodeHandler(server, { stateless: true })).listen(port, host);
  }
} else {
  const answer = (msg) => {
    if (msg.method === 'initialize') return { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {}, resources: {} }, serverInfo: { name: 'reference', version: '1.0.0' } };
    if (msg.method === 'resources/read') return { contents: [{ uri: msg.params.uri, mimeType: 'text/plain', text }] };
    if (msg.method === 'tools/call') return { content: [{ type: 'text', text }] };
    return {};
  };
  const encode = (msg) => JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: answer(msg) });
  if (transport === 'stdio') {
    let buffered = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        const msg = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        if (msg.id !== undefined && msg.method !== undefined) process.stdout.write(encode(msg) + '\n');
      }
    });
    process.stdin.on('end', () => process.exit(0));
  } else {
    http
      .createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (msg.id === undefined) return res.writeHead(202).end();
          const body = encode(msg);
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
        });
      })
      .listen(port, host);
  }
}
