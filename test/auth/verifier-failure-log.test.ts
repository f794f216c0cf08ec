/**
 * A verifier that cannot decide answers 503 to the client, which says nothing about why. The
 * cause (a JWKS endpoint down, the optional peer `jose` not installed) must reach the operator:
 * it goes to the server's logger, the first time and then at most once a minute.
 */
import { afterEach, expect, it } from 'vitest';
import { listen, type McpHttpListener } from '../../src/http.js';
import { McpServer } from '../../src/server/server.js';

let listener: McpHttpListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

it('reports why the verifier failed through the server logger, without flooding it', async () => {
  const logged: unknown[][] = [];
  const server = new McpServer({ name: 'v', version: '1.0.0', logger: { error: (...args: unknown[]) => void logged.push(args) } });
  listener = await listen(server, {
    port: 0,
    auth: {
      authorizationServers: ['https://issuer.example'],
      verify: () => {
        throw new Error('mcpkit/auth: jwtVerifier needs the optional peer dependency "jose" (>= 6): npm install jose');
      },
    },
  });
  const call = (id: number) =>
    fetch(listener!.url, {
      method: 'POST',
      headers: { authorization: 'Bearer abc', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }),
    });
  expect((await call(1)).status).toBe(503);
  expect((await call(2)).status).toBe(503);
  expect(logged).toHaveLength(1);
  expect(String(logged[0]![0])).toMatch(/auth verifier failed/);
  expect((logged[0]![1] as Error).message).toMatch(/npm install jose/);
});
