/**
 * A reverse proxy for tests, on 127.0.0.1: forwards every request to one
 * upstream and appends the caller's address to `X-Forwarded-For`, as nginx's
 * `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for` does. Like
 * nginx by default, it sends the upstream's own Host unless `preserveHost`
 * keeps the public one (`proxy_set_header Host $host`). Responses (SSE too)
 * are streamed back as they come.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReverseProxy {
  /** The upstream URL with the proxy's origin. */
  url: string;
  close(): Promise<void>;
}

export async function startReverseProxy(upstreamUrl: string, options: { preserveHost?: boolean } = {}): Promise<ReverseProxy> {
  const upstream = new URL(upstreamUrl);
  const server = createServer((req, res) => {
    const given = req.headers['x-forwarded-for'];
    const prior = Array.isArray(given) ? given.join(', ') : given;
    const peer = req.socket.remoteAddress ?? '';
    const headers = { ...req.headers, 'x-forwarded-for': prior === undefined ? peer : `${prior}, ${peer}` };
    if (options.preserveHost !== true) headers.host = upstream.host;
    const out = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, localAddress: '127.0.0.1', agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
