/**
 * A transport in front of another (logging, headers, a deadline of its own) that gives the inner one
 * a signal of its own: by assigning `info.signal` or by spreading `{ ...info, signal }`. The client's
 * OutboundInfo holds `signal` as a getter and `abort` beside it; neither may turn that into a
 * TypeError, or make mcpkit's transports ignore the signal they were given.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { Client, InMemoryTransport, StreamableHttpTransport, type ClientTransport, type OutboundInfo } from '../../src/client.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { eventually } from '../support/eventually.js';

const cleanup = cleanupAfterEach();

/** In front of `inner`: the inner transport gets the client's signal and `own`'s, by `how`. */
function wrapper(inner: ClientTransport, own: AbortSignal, how: 'assign' | 'spread'): ClientTransport {
  return {
    start: (sink) => inner.start(sink),
    send: (message, info?: OutboundInfo) => {
      if (info === undefined || info.signal === undefined) return inner.send(message, info);
      const signal = AbortSignal.any([info.signal, own]);
      if (how === 'spread') return inner.send(message, { ...info, signal });
      info.signal = signal;
      return inner.send(message, info);
    },
    negotiated: (version) => inner.negotiated?.(version),
    close: () => inner.close(),
  };
}

function hangingServer(seen: { aborted: number }): McpServer {
  const server = new McpServer({ name: 'hang', version: '1.0.0' });
  server.tool('hang', { description: 'answers when aborted' }, (_args, ctx) => new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => ((seen.aborted += 1), resolve('aborted')))));
  return server;
}

it.each(['assign', 'spread'] as const)('in memory, %s: the wrapper signal reaches the server', async (how) => {
  const seen = { aborted: 0 };
  const own = new AbortController();
  const client = new Client({ protocolVersion: '2025-11-25' });
  cleanup.push(() => client.close());
  await client.connect(wrapper(new InMemoryTransport(hangingServer(seen)), own.signal, how));
  const call = client.callTool('hang', {}, { timeoutMs: 2000 });
  setTimeout(() => own.abort(new Error('the wrapper gave up')), 20);
  await expect(call).resolves.toMatchObject({ content: [{ type: 'text', text: 'aborted' }] });
  expect(seen.aborted).toBe(1);
});

/** An HTTP/1.1 server that answers the handshake and never answers tools/call; tells when a call's socket closed. */
async function silentOnCalls(version: string): Promise<{ url: string; calls: () => number; callsClosed: () => number }> {
  const sockets = new Set<net.Socket>();
  let calls = 0;
  let callsClosed = 0;
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
        const body = buffered.slice(end + 4, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        const message = JSON.parse(body) as { id?: number; method: string };
        const reply = (result: unknown): void => {
          const text = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
          socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
        };
        if (message.id === undefined) socket.write('HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n');
        else if (message.method === 'initialize') reply({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'silent', version: '1.0.0' } });
        else if (message.method === 'server/discover') reply({ supportedVersions: [version], capabilities: { tools: {} }, serverInfo: { name: 'silent', version: '1.0.0' } });
        else {
          // tools/call: never answered; its exchange ends when the client closes the socket.
          calls += 1;
          socket.once('close', () => (callsClosed += 1));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, calls: () => calls, callsClosed: () => callsClosed };
}

it.each([
  ['2025-11-25', 'assign'],
  ['2025-11-25', 'spread'],
  ['2026-07-28', 'assign'],
  ['2026-07-28', 'spread'],
] as const)('over HTTP, %s, %s: the wrapper signal ends the exchange', async (version, how) => {
  const upstream = await silentOnCalls(version);
  const own = new AbortController();
  const client = new Client({ protocolVersion: version });
  cleanup.push(() => client.close());
  await client.connect(wrapper(new StreamableHttpTransport(upstream.url, { openGetStream: false }), own.signal, how));
  void client.callTool('slow', {}, { timeoutMs: 0 }).catch(() => undefined);
  await eventually(() => upstream.calls() === 1);
  expect(upstream.callsClosed()).toBe(0);
  own.abort(new Error('the wrapper gave up'));
  await eventually(() => upstream.callsClosed() === 1, { deadlineMs: 2000, message: 'the call exchange stayed open after the wrapper signal aborted' });
});
