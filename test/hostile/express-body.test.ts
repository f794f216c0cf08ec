/**
 * mountMcpHttp on real Express 5 apps on 127.0.0.1: without a body parser it
 * reads the body itself; with `express.json()` & co. in front it still holds
 * the request to maxBodyBytes and maxBatchSize, and a parser's failure (bad
 * JSON, its own limit) is answered as JSON-RPC after the Host check, never as
 * Express's HTML page with a stack trace.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mountMcpHttp, type MountMcpHttpOptions } from '../../src/express.js';
import { buildServer } from '../transports/http/fixtures.js';
import { rawRequest, rpc } from '../transports/http/support.js';

let httpServer: Server | undefined;
afterEach(async () => {
  httpServer?.closeAllConnections();
  await new Promise((resolve) => httpServer?.close(resolve) ?? resolve(undefined));
  httpServer = undefined;
});

type Parser = 'none' | 'json' | 'json-10mb' | 'text' | 'raw';
async function serve(parser: Parser, options: MountMcpHttpOptions = {}, config: Parameters<typeof buildServer>[1] = {}): Promise<string> {
  const app = express();
  if (parser === 'json') app.use(express.json());
  if (parser === 'json-10mb') app.use(express.json({ limit: '10mb' }));
  if (parser === 'text') app.use(express.text({ type: 'application/json' }));
  if (parser === 'raw') app.use(express.raw({ type: 'application/json' }));
  mountMcpHttp(app, buildServer(undefined, config).server, options);
  httpServer = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => httpServer!.once('listening', () => resolve()));
  return `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

async function send(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; json: unknown; text: string }> {
  const response = await rawRequest(url, { headers: { ...HEADERS, ...headers }, body });
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    json = undefined;
  }
  return { status: response.status, type: String(response.headers['content-type']), json, text: response.body };
}

const error = (code: number, message: string): unknown => ({ jsonrpc: '2.0', id: null, error: { code, message } });
const call = JSON.stringify(rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }));
const ok = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } };
const parsers: Parser[] = ['none', 'json', 'text', 'raw'];

describe.each(parsers)('with parser: %s', (parser) => {
  it('serves a call', async () => {
    const url = await serve(parser);
    expect((await send(url, call)).json).toEqual(ok);
  });

  it('answers invalid JSON with -32700 as JSON, no HTML, no paths', async () => {
    const url = await serve(parser);
    const answer = await send(url, '{"jsonrpc": "2.0", "id": 1, ');
    expect(answer.status).toBe(400);
    expect(answer.type).toBe('application/json');
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect((answer.json as { error: { message: string } }).error.message).toMatch(/^Parse error: /);
    expect(answer.text).not.toMatch(/<html|<pre|\/work\/|node_modules|at .*\(/i);
    expect((await send(url, call)).json).toEqual(ok); // still serving
  });

  it('a foreign Host gets 403 before anything looks at the body', async () => {
    const url = await serve(parser);
    const answer = await send(url, '{not json', { host: 'evil.example.com' });
    expect(answer.status).toBe(403);
    expect(answer.type).toBe('application/json');
    expect(answer.text).not.toMatch(/<html|stack|node_modules/i);
  });

  it('holds the body to maxBodyBytes', async () => {
    const url = await serve(parser, { limits: { maxBodyBytes: 1000 } });
    const big = JSON.stringify(rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(2000) } }));
    const answer = await send(url, big);
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual(error(-32600, 'Payload too large: the body exceeds 1000 bytes (maxBodyBytes)'));
  });

  it('holds a batch to maxBatchSize', async () => {
    const url = await serve(parser, {}, { limits: { maxBatchSize: 2 } });
    const batch = JSON.stringify([rpc(1, 'tools/list'), rpc(2, 'tools/list'), rpc(3, 'tools/list')]);
    const answer = await send(url, batch);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(error(-32600, 'Invalid Request: the batch holds 3 messages, more than the limit of 2 (maxBatchSize)'));
  });
});

describe('a parsed body without Content-Length', () => {
  it('is held to maxBodyBytes by its size serialised again (chunked upload)', async () => {
    const url = await serve('json-10mb', { limits: { maxBodyBytes: 1000 } });
    const big = JSON.stringify(rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(2000) } }));
    const response = await fetch(url, {
      method: 'POST',
      headers: HEADERS,
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(error(-32600, 'Payload too large: the body exceeds 1000 bytes (maxBodyBytes)'));
  });
});

describe("the parser's own limit", () => {
  it('express.json() at its default 100 KB answers 413 as JSON-RPC, naming that limit', async () => {
    const url = await serve('json');
    const big = JSON.stringify(rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(200_000) } }));
    const answer = await send(url, big);
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual(error(-32600, 'Payload too large: the body exceeds 102400 bytes (the limit of the body parser in front of the MCP endpoint)'));
    expect((await send(url, call)).json).toEqual(ok);
  });

  it('without a parser the same body is served (maxBodyBytes is 4 MiB)', async () => {
    const url = await serve('none');
    const body = JSON.stringify(rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(200_000) } }));
    expect((await send(url, body)).json).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(200_000) }] } });
  });
});

describe('errors that are not body-parser errors', () => {
  it('reach the app’s own error handling', async () => {
    const app = express();
    app.use('/mcp', () => {
      throw new Error('app failure');
    });
    mountMcpHttp(app, buildServer().server);
    let seen: unknown;
    app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      seen = err;
      res.status(500).json({ app: 'handled' });
    });
    httpServer = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => httpServer!.once('listening', () => resolve()));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
    const answer = await send(url, call);
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ app: 'handled' });
    expect((seen as Error).message).toBe('app failure');
  });
});
