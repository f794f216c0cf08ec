/**
 * The `_meta` a 2026-07-28 request carries, as sent: the protocol version, capabilities and client
 * info on every request (the log level once set), a caller's own `_meta` and `options.meta` kept
 * beside them, and the client's keys winning over a caller's attempt to set them.
 */
import { expect, it } from 'vitest';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { ok, Raw } from './support/raw-http.js';

const cleanup = cleanupAfterEach();
const VERSION = '2026-07-28';

async function recordingServer(): Promise<{ url: string; metas: Record<string, unknown>[] }> {
  const metas: Record<string, unknown>[] = [];
  const raw = new Raw((request) => {
    const message = JSON.parse(request.body) as { id?: number; method: string; params?: { _meta?: Record<string, unknown> } };
    const reply = (result: unknown): void => void request.socket.write(ok(JSON.stringify({ jsonrpc: '2.0', id: message.id, result })));
    if (message.method === 'server/discover') return reply({ supportedVersions: [VERSION], capabilities: { tools: {} }, serverInfo: { name: 'rec', version: '1.0.0' } });
    metas.push(message.params?._meta ?? {});
    reply({ resultType: 'complete', tools: [] });
  });
  await raw.start();
  cleanup.push(() => raw.close());
  return { url: raw.url('/mcp').href, metas };
}

it('every 2026-07-28 request carries the version, capabilities and client info; the log level once set', async () => {
  const server = await recordingServer();
  const client = new Client({ protocolVersion: VERSION, clientInfo: { name: 'meta-test', version: '9.9.9' }, roots: () => [] });
  cleanup.push(() => client.close());
  await client.connect(new StreamableHttpTransport(server.url));
  await client.request('tools/list', {});
  await client.request('tools/list', {});
  await client.setLoggingLevel('debug');
  await client.request('tools/list', {});
  await client.setLoggingLevel('error');
  await client.request('tools/list', {});
  const base = {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': client.capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'meta-test', version: '9.9.9' },
  };
  expect(server.metas).toEqual([base, base, { ...base, 'io.modelcontextprotocol/logLevel': 'debug' }, { ...base, 'io.modelcontextprotocol/logLevel': 'error' }]);
});

it("a caller's _meta and options.meta go beside the client's keys, which win", async () => {
  const server = await recordingServer();
  const client = new Client({ protocolVersion: VERSION });
  cleanup.push(() => client.close());
  await client.connect(new StreamableHttpTransport(server.url));
  await client.request('tools/list', { _meta: { mine: 1, 'io.modelcontextprotocol/protocolVersion': 'forged' } }, { meta: { also: 2 } });
  await client.request('tools/list', {}, { onProgress: () => undefined });
  await client.request('tools/list', {});
  const [own, progress, plain] = server.metas;
  expect(own).toMatchObject({ mine: 1, also: 2, 'io.modelcontextprotocol/protocolVersion': VERSION });
  expect(progress).toMatchObject({ progressToken: expect.any(Number), 'io.modelcontextprotocol/protocolVersion': VERSION });
  // What one request was given stays its own: the next carries none of it.
  expect(Object.keys(plain!).sort()).toEqual(['io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/protocolVersion']);
});
