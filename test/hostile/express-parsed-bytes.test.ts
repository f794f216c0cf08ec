/**
 * With express.json() in front and a chunked body (no Content-Length), a
 * request's bytes counted 0 against the in-flight limits (legacySse.maxInflightBytes,
 * maxInflightBytesPerClient), so such a client could hold any number of parsed
 * bodies. The size measured when the parsed body is checked now counts.
 * Real Express server on 127.0.0.1.
 */
import express from 'express';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mountMcpHttp } from '../../src/express.js';
import { buildServer } from '../transports/http/fixtures.js';

let httpServer: Server | undefined;
afterEach(async () => {
  httpServer?.closeAllConnections();
  await new Promise((resolve) => httpServer?.close(resolve) ?? resolve(undefined));
  httpServer = undefined;
});

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
};
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'review', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** POSTs `body` in two chunks (Transfer-Encoding: chunked, no Content-Length). */
function chunked(url: string, tool: string, body: string): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false, headers: { ...HEADERS, 'mcp-name': tool } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.write(body.slice(0, 10));
    req.end(body.slice(10));
  });
}

function call(id: number, tool: string, args: Record<string, unknown>, padding: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args, pad: 'x'.repeat(padding), _meta: META } });
}

describe('express.json() in front, chunked bodies', () => {
  it('counts a parsed body without Content-Length against maxInflightBytesPerClient', async () => {
    const { server, gates } = buildServer();
    const app = express();
    app.use(express.json({ limit: '10mb' }));
    mountMcpHttp(app, server, { limits: { maxInflightBytesPerClient: 20_000 } });
    httpServer = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => httpServer!.once('listening', () => resolve()));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;

    const held = chunked(url, 'wait', call(1, 'wait', { gate: 'g' }, 15_000));
    for (let i = 0; i < 500 && !gates.waiting('g'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gates.waiting('g')).toBe(true);

    const refused = await chunked(url, 'echo', call(2, 'echo', { text: 'x' }, 8_000));
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ id: 2, error: { code: -32600, message: expect.stringMatching(/^Too many requests in flight: this client's running requests already hold \d+ bytes/) } });

    gates.open('g');
    expect((await held).status).toBe(200);
    expect((await chunked(url, 'echo', call(3, 'echo', { text: 'x' }, 8_000))).status).toBe(200);
  });
});
