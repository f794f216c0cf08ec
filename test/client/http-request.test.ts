/**
 * The two HTTP engines of the Streamable HTTP transport: node:http (the default on Node) and fetch
 * (a caller's own). Both bound what they read, end an exchange when its signal aborts, and end every
 * exchange when closed; the node:http one adds no listener to a shared signal per request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchEngine, nodeEngine, type HttpEngine } from '../../src/client/http-request.js';
import { wireEngine } from '../../src/client/http1.js';
import { Client, McpTransportError, StreamableHttpTransport } from '../../src/client.js';
import { listen, type McpHttpListener } from '../../src/adapters/node.js';
import { createEverythingServer } from '../../examples/everything-server/server.js';
import { FlagSignal as Flag } from '../support/flag-signal.js';

let server: http.Server;
let base: string;
/** Requests the raw server saw end (the peer closed the connection before an answer). */
const dropped: string[] = [];
/** Methods the raw server's /mcp received and holds unanswered. */
const received: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/hang') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      res.once('close', () => dropped.push(path));
      return;
    }
    if (path === '/chunked') {
      res.writeHead(200, { 'content-type': 'application/json' }); // no length: chunked
      for (let i = 0; i < 10; i++) res.write('x'.repeat(1000));
      return void res.end();
    }
    if (path === '/mcp') {
      // Answers the handshake, then never answers a call.
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return void res.writeHead(202).end();
        if (message.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'hang', version: '1' } } }));
        received.push(message.method);
        res.once('close', () => dropped.push(message.method));
      });
      return;
    }
    if (path === '/close') return void res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{"ok":true}');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const engines: Record<string, () => HttpEngine> = { 'node:http': nodeEngine, 'http1 (own)': () => wireEngine(nodeEngine), fetch: () => fetchEngine((input, init) => fetch(input, init)) };

describe.each(Object.keys(engines))('the %s engine', (name) => {
  let engine: HttpEngine;
  beforeAll(() => void (engine = engines[name]!()));
  afterAll(() => engine.close());

  it('refuses a chunked body longer than the bound, and reads one within it', async () => {
    const over = await engine.send(new URL('/chunked', base), { method: 'GET', headers: {} });
    await expect(over.text(5000)).rejects.toThrow(/longer than maxMessageBytes \(5000\)/);
    const within = await engine.send(new URL('/chunked', base), { method: 'GET', headers: {} });
    expect(await within.text(20_000)).toBe('x'.repeat(10_000));
  });

  it('keeps working when the server closes every connection after answering', async () => {
    for (let i = 0; i < 5; i++) {
      const reply = await engine.send(new URL('/close', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(JSON.parse(await reply.text(100))).toEqual({ ok: true });
    }
  });

  it("ends an exchange whose signal aborts while its stream is read, and the server sees it go", async () => {
    const controller = new AbortController();
    const reply = await engine.send(new URL('/hang', base), { method: 'GET', headers: {}, signal: controller.signal });
    const reading = (async () => {
      for await (const chunk of reply.texts()) if (chunk.includes('open')) controller.abort();
    })();
    await expect(reading).rejects.toThrow();
    await expect.poll(() => dropped.filter((p) => p === '/hang').length).toBeGreaterThan(0);
  });
});

describe('the node:http engine', () => {
  it('ends every exchange in flight when closed', async () => {
    const engine = nodeEngine();
    const before = dropped.length;
    const reply = await engine.send(new URL('/hang', base), { method: 'GET', headers: {} });
    const reading = (async () => {
      for await (const chunk of reply.texts()) void chunk;
    })();
    engine.close();
    await expect(reading).rejects.toThrow();
    await expect.poll(() => dropped.length).toBeGreaterThan(before);
    await expect(engine.send(new URL('/close', base), { method: 'GET', headers: {} })).rejects.toThrow(/closed/);
  });
});

describe('the transport on node:http', () => {
  let listener: McpHttpListener;
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning);
  beforeAll(async () => {
    listener = await listen(createEverythingServer(), { port: 0 });
    process.on('warning', onWarning);
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await listener.close();
  });
  afterEach(() => void (warnings.length = 0));

  it.each(['2025-11-25', '2026-07-28'] as const)('adds no listener per request to a shared signal (%s: 1600 calls, no MaxListeners warning)', async (version) => {
    const client = new Client({ protocolVersion: version });
    await client.connect(new StreamableHttpTransport(listener.url));
    for (let i = 0; i < 1600; i++) await client.callTool('test_simple_text', {});
    await client.close();
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  }, 60_000);

  it('rejects a call in flight with a closed error when the transport closes, and drops its connection', async () => {
    const client = new Client({ protocolVersion: '2025-11-25' });
    const transport = new StreamableHttpTransport(`${base}/mcp`, { openGetStream: false });
    await client.connect(transport);
    const call = client.callTool('anything', {}).catch((error: unknown) => error);
    await expect.poll(() => received.includes('tools/call')).toBe(true);
    await transport.close();
    expect(await call).toBeInstanceOf(McpTransportError);
    await expect.poll(() => dropped.includes('tools/call')).toBe(true);
    await client.close();
  });
});

describe('the fetch engine with a signal that is not an AbortSignal', () => {
  it('unlinks each exchange from it once its body is read, and still aborts the one being read', async () => {
    const given: AbortSignal[] = [];
    const engine = fetchEngine((input, init) => {
      given.push(init.signal!);
      return fetch(input, init);
    });
    const flag = new Flag();
    for (let i = 0; i < 50; i++) {
      const reply = await engine.send(new URL('/close', base), { method: 'GET', headers: {}, signal: flag });
      expect(JSON.parse(await reply.text(100))).toEqual({ ok: true });
    }
    const discarded = await engine.send(new URL('/close', base), { method: 'GET', headers: {}, signal: flag });
    await discarded.discard();
    const hanging = await engine.send(new URL('/hang', base), { method: 'GET', headers: {}, signal: flag });
    const reading = (async () => {
      for await (const chunk of hanging.texts()) void chunk;
    })();
    flag.abort();
    await expect(reading).rejects.toThrow();
    // Only the exchange still in flight was aborted: the 51 done ones were released, not kept linked.
    expect(given.filter((signal) => signal.aborted)).toHaveLength(1);
    expect(given.at(-1)!.aborted).toBe(true);
  });
});
