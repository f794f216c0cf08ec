/**
 * Modern HTTP requests share one stateless connection, yet unrelated clients
 * must not see each other: the same JSON-RPC id may be in flight twice, and a
 * `notifications/cancelled` posted by one client cannot cancel another's request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/index.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { meta, modernRequest, postRaw, routingHeaders } from '../../fixtures/modern-http.mjs';

let listener: McpHttpListener;
let release!: () => void;
let started!: () => void;
const gate = new Promise<void>((resolve) => (release = resolve));
const running = new Promise<void>((resolve) => (started = resolve));
let abortedBy: unknown;

beforeAll(async () => {
  const server = new McpServer({ name: 'isolation', version: '1.0.0' });
  server.tool('block', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    ctx.signal.addEventListener('abort', () => (abortedBy = ctx.signal.reason), { once: true });
    started();
    await gate;
    return 'released';
  });
  server.tool('quick', { input: { type: 'object', properties: {} } }, () => 'quick');
  listener = await listen(server, { port: 0, keepAliveMs: 0 });
});
afterAll(async () => {
  release();
  await listener.close({ graceMs: 0 });
});

describe('the shared stateless connection', () => {
  it('serves two clients using the same request id at once, and ignores a stranger cancellation', async () => {
    const slow = modernRequest(listener.url, 1, 'tools/call', { name: 'block', arguments: {} });
    await running;

    const other = await modernRequest(listener.url, 1, 'tools/call', { name: 'quick', arguments: {} });
    expect(other.status).toBe(200);
    expect(other.messages[0]).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'quick' }] } });

    const cancel = await postRaw(
      listener.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'not yours', _meta: meta() } },
      routingHeaders('notifications/cancelled'),
    );
    expect(cancel.status).toBe(202);

    release();
    const reply = await slow;
    expect(reply.status).toBe(200);
    expect(reply.messages[0]).toMatchObject({ id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: 'released' }] } });
    expect(abortedBy).toBeUndefined();
  });
});
