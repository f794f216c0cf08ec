/** Graceful shutdown: 503 for new requests, in-flight ones finish within the grace period, then everything ends. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler, listen, type NodeHandler } from '../../../src/http.js';
import { buildServer, type Gates } from './fixtures.js';
import { eventually, initializeBody, openSession, post, readEvents, rpc, sessionHeaders } from './support.js';
import type { McpServer } from '../../../src/server/server.js';

let httpServer: Server | undefined;
afterEach(async () => {
  httpServer?.closeAllConnections();
  await new Promise((resolve) => httpServer?.close(resolve) ?? resolve(undefined));
  httpServer = undefined;
});

/** The node handler on a server this test keeps open, so the engine's own 503 is observable. */
async function serve(): Promise<{ url: string; handler: NodeHandler; mcp: McpServer; gates: Gates }> {
  const { server: mcp, gates } = buildServer();
  const handler = createNodeHandler(mcp, { keepAliveMs: 0 });
  httpServer = createServer(handler);
  await new Promise<void>((resolve) => httpServer!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
  return { url, handler, mcp, gates };
}

describe('engine close()', () => {
  it('answers new requests with 503 while in-flight ones finish within the grace period', async () => {
    const { url, handler, gates } = await serve();
    const session = await openSession(url);
    const inflight = post(url, rpc(1, 'tools/call', { name: 'wait', arguments: { gate: 'g' } }), sessionHeaders(session));
    await eventually(() => gates.waiting('g'));
    const closed = handler.close({ graceMs: 60_000 });
    expect(handler.engine.closed).toBe(true);
    const refused = await post(url, initializeBody());
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('shutting down');
    gates.open('g');
    const finished = await inflight;
    expect(finished.status).toBe(200);
    expect(await finished.json()).toMatchObject({ id: 1, result: { content: [{ text: 'released g' }] } });
    await closed;
    expect(gates.aborted).toEqual([]);
  });

  it('aborts what is still running when the grace period ends, and closes every session', async () => {
    const { url, handler, mcp, gates } = await serve();
    const session = await openSession(url);
    const stream = await fetch(url, { headers: { accept: 'text/event-stream', ...sessionHeaders(session) } });
    const streamEnded = readEvents(stream);
    const inflight = post(url, rpc(1, 'tools/call', { name: 'wait', arguments: { gate: 'never' } }), sessionHeaders(session));
    await eventually(() => gates.waiting('never'));
    await handler.close({ graceMs: 10 });
    expect(gates.aborted).toEqual(['never']);
    const response = await inflight;
    expect([200, 503]).toContain(response.status);
    await response.text();
    await streamEnded; // the standalone stream was ended
    expect(mcp.connectionCount).toBe(0);
  });

  it('ends streamed responses that are still open', async () => {
    const { url, handler, gates } = await serve();
    const session = await openSession(url);
    const response = await post(url, rpc(2, 'tools/call', { name: 'steps', arguments: { gate: 'x' }, _meta: { progressToken: 1 } }), sessionHeaders(session));
    const reading = readEvents(response);
    await eventually(() => gates.waiting('x'));
    await handler.close({ graceMs: 0 });
    const events = await reading;
    expect(events.some((e) => e.data.includes('"result"'))).toBe(false);
  });
});

describe('listen()', () => {
  it('binds 127.0.0.1 by default, serves /mcp, and close() releases the port', async () => {
    const { server: mcp } = buildServer();
    const listener = await listen(mcp, { port: 0 });
    expect(listener.url).toBe(`http://127.0.0.1:${listener.port}/mcp`);
    expect((listener.server.address() as AddressInfo).address).toBe('127.0.0.1');
    const response = await post(listener.url, initializeBody());
    expect(response.status).toBe(200);
    await response.text();
    await listener.close({ graceMs: 0 });
    expect(listener.server.listening).toBe(false);
    await expect(fetch(listener.url)).rejects.toThrow();
  });
});
