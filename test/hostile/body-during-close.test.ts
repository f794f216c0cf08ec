/**
 * close() refuses new requests (503) and waits for the ones in flight. A POST
 * whose body was still arriving when close() ran was neither: once the body
 * ended, its call ran on the closed session (or shared connection), was never
 * aborted and got no answer while its tool waited for a cancellation that could
 * no longer come; a server.close() of the caller's own node:http server then
 * waited for that connection forever.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler, type NodeHandler } from '../../src/adapters/node.js';
import { McpServer } from '../../src/server/server.js';
import { eventually, openSession, sessionHeaders } from '../transports/http/support.js';

let http: Server | undefined;
let handler: NodeHandler | undefined;
afterEach(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => (http === undefined ? resolve(undefined) : http.close(resolve)));
  http = handler = undefined;
});

async function start(stateless: boolean, started: string[]): Promise<{ port: number; url: string }> {
  const server = new McpServer({ name: 'closing', version: '1.0.0' });
  // Runs until it is cancelled, as a long job or a stream follower does.
  server.tool('until-cancelled', {}, (_args, ctx) => {
    started.push('until-cancelled');
    return new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('cancelled'))));
  });
  handler = createNodeHandler(server, { keepAliveMs: 0, stateless });
  http = createServer(handler);
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return { port, url: `http://127.0.0.1:${port}/mcp` };
}

describe('a POST whose body ends after close() started', () => {
  for (const stateless of [true, false]) {
    it(`is refused with 503 and its tool never runs (${stateless ? 'stateless' : 'session'})`, async () => {
      const started: string[] = [];
      const { port, url } = await start(stateless, started);
      const headers = stateless ? { 'mcp-protocol-version': '2025-06-18' } : sessionHeaders(await openSession(url));
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'until-cancelled', arguments: {} } });
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
          `${head}Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      await handler!.close({ graceMs: 0 });
      socket.write(body.slice(10));
      await eventually(() => received.startsWith('HTTP/1.1 503'), { deadlineMs: 2_000 });
      expect(started).toEqual([]);
      socket.destroy();
    });
  }
});
