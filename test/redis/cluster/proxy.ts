/**
 * A round-robin HTTP load balancer for the cluster tests: every request goes
 * to the next instance (no stickiness), `x-pin: <index>` sends it to one
 * instance, bodies stream both ways, and when the client goes away the
 * upstream request is aborted (and the client's connection when the upstream dies). `x-served-by` tells the test which instance answered.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Proxy {
  readonly url: string;
  /** Index of the instance each request went to, in order. */
  readonly served: number[];
  close(): Promise<void>;
}

export async function startProxy(upstreams: () => readonly number[]): Promise<Proxy> {
  let next = 0;
  const served: number[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const ports = upstreams();
    const pinned = req.headers['x-pin'];
    const index = typeof pinned === 'string' ? Number(pinned) : next++ % ports.length;
    served.push(index);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: `127.0.0.1:${ports[index]}` };
    delete headers['x-pin'];
    const upstream = httpRequest({ host: '127.0.0.1', port: ports[index], method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': String(index) });
      res.flushHeaders();
      answer.pipe(res);
      // The upstream died mid-answer (kill -9): the client's connection drops too, as behind a real balancer.
      answer.on('close', () => {
        if (!answer.complete) res.destroy();
      });
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', 'x-served-by': String(index) }).end(`upstream ${index} unreachable`);
      else res.destroy();
    });
    // The client went away before the answer ended: so does the upstream request.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
