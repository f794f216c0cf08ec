/**
 * A transport in front of another that gives defaults the client's OutboundInfo may override:
 * `{ headers: mine, ...info }`. The client's info has only the keys it set: one it did not set
 * (`headers` on a legacy session, `protocolVersion` before the handshake) must not be an own
 * `undefined` that erases the wrapper's default.
 */
import { expect, it } from 'vitest';
import { Client, StreamableHttpTransport, type ClientTransport, type OutboundInfo } from '../../src/client.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { ok, Raw } from './support/raw-http.js';

const cleanup = cleanupAfterEach();

function withDefaults(inner: ClientTransport, defaults: OutboundInfo): ClientTransport {
  return {
    start: (sink) => inner.start(sink),
    send: (message, info?: OutboundInfo) => inner.send(message, { ...defaults, ...info }),
    negotiated: (version) => inner.negotiated?.(version),
    close: () => inner.close(),
  };
}

it('over HTTP, 2025-11-25: a wrapper default header no key of the client overrides reaches the server', async () => {
  const raw = new Raw((request) => {
    if (request.method !== 'POST') return void request.socket.write('HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n');
    const message = JSON.parse(request.body) as { id?: number; method: string };
    if (message.id === undefined) return void request.socket.write('HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n');
    const result = message.method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1.0.0' } } : message.method === 'tools/call' ? { content: [] } : {};
    request.socket.write(ok(JSON.stringify({ jsonrpc: '2.0', id: message.id, result })));
  });
  await raw.start();
  cleanup.push(() => raw.close());
  const client = new Client({ protocolVersion: '2025-11-25' });
  cleanup.push(() => client.close());
  await client.connect(withDefaults(new StreamableHttpTransport(raw.url('/mcp').href, { openGetStream: false }), { headers: { 'x-wrapper': 'yes' } }));
  await client.callTool('anything', {});
  const heads = raw.requests.filter((r) => r.body.includes('"tools/call"')).map((r) => r.head);
  expect(heads).toHaveLength(1);
  expect(heads[0]).toMatch(/\r\nx-wrapper: yes/i);
});
