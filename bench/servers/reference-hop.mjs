// Physical-limit reference for a proxy: a node:http hop that forwards each request's bytes to one
// upstream over a keep-alive agent and pipes the answer back, parsing nothing (no JSON, no names,
// no sessions of its own). What any Node HTTP proxy costs at least, next to which bench/proxy.mjs
// puts the gateway. Prints where it listens to stderr, as `mcpkit` does.
//   node bench/servers/reference-hop.mjs <upstream url>
import http from 'node:http';

const upstream = new URL(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const headers = { ...req.headers, host: upstream.host };
    if (body.length > 0) headers['content-length'] = String(body.length);
    const out = http.request({ agent, host: upstream.hostname, port: upstream.port, path: upstream.pathname, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.stderr.write(`reference hop on http://127.0.0.1:${server.address().port}/mcp\n`));
