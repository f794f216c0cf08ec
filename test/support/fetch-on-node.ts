/**
 * A fetch-style handler (`(Request) => Promise<Response>`, as the official SDK v2's `createMcpHandler`
 * returns) served by node:http on 127.0.0.1, streaming the answer as it comes (SSE included).
 */
import http from 'node:http';

export async function listenFetch(handler: { fetch(request: Request): Promise<Response> }): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
      void handler
        .fetch(new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) }))
        .then(async (response) => {
          res.writeHead(response.status, Object.fromEntries(response.headers));
          if (response.body === null) return void res.end();
          for await (const chunk of response.body) res.write(chunk);
          res.end();
        })
        .catch(() => void res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
