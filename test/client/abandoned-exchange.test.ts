/**
 * A request the client gives up on (timed out, aborted) ends its HTTP exchange in both eras. On
 * 2026-07-28 ending it is the cancellation; on a legacy session notifications/cancelled is, and the
 * POST used to stay open until the server answered: a server that never answers a cancelled call
 * held one socket per abandoned call, without bound.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { eventually } from '../support/eventually.js';

const cleanup = cleanupAfterEach();

/** An HTTP/1.1 server that answers the handshake and lists, and never answers tools/call. */
async function silentOnCalls(version: string): Promise<{ url: string; open: () => number; cancelled: unknown[] }> {
  const sockets = new Set<net.Socket>();
  const cancelled: unknown[] = [];
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const head = buffered.slice(0, end);
        const body = buffered.slice(end + 4, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        if (!head.startsWith('POST')) {
          socket.write('HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n');
          continue;
        }
        const message = JSON.parse(body) as { id?: number; method: string; params?: { requestId?: unknown } };
        const reply = (result: unknown): void => {
          const text = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
          socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
        };
        if (message.id === undefined) {
          if (message.method === 'notifications/cancelled') cancelled.push(message.params?.requestId);
          socket.write('HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n');
        } else if (message.method === 'initialize') reply({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'silent', version: '1.0.0' } });
        else if (message.method === 'server/discover') reply({ supportedVersions: [version], capabilities: { tools: {} }, serverInfo: { name: 'silent', version: '1.0.0' } });
        else if (message.method === 'tools/list') reply({ tools: [] });
        // tools/call: never answered
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, open: () => sockets.size, cancelled };
}

it.each(['2025-11-25', '2026-07-28'] as const)('%s: timed-out and aborted calls end their exchanges', async (version) => {
  const upstream = await silentOnCalls(version);
  const client = new Client({ protocolVersion: version, requestTimeoutMs: 100 });
  cleanup.push(() => client.close());
  await client.connect(new StreamableHttpTransport(upstream.url, { openGetStream: false }));
  const before = upstream.open();
  const failures: string[] = [];
  for (let i = 0; i < 5; i++) await client.callTool('slow', {}).catch((error: { kind?: string }) => failures.push(String(error.kind)));
  for (let i = 0; i < 5; i++) {
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal }).catch((error: { kind?: string }) => failures.push(String(error.kind)));
    setTimeout(() => controller.abort(), 20);
    await call;
  }
  expect(failures).toEqual([...Array<string>(5).fill('timeout'), ...Array<string>(5).fill('aborted')]);
  // One kept-alive socket at most beside the ones open before: not one per abandoned call.
  await eventually(() => upstream.open() <= before + 1, { message: `sockets open: ${upstream.open()} (before the calls: ${before})` });
  if (version === '2025-11-25') {
    // On a legacy session the explicit cancellation still goes out, once per call.
    await eventually(() => upstream.cancelled.length === 10, { message: `notifications/cancelled received: ${upstream.cancelled.length}` });
    expect(new Set(upstream.cancelled).size).toBe(10);
  }
  // The client goes on working after every abandoned call.
  expect((await client.listTools()).tools).toEqual([]);
});
