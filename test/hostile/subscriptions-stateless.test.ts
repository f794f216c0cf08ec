/**
 * The shared stateless connection (Express's default, `stateless: true`) keeps
 * no per-client state: `resources/subscribe`, `resources/unsubscribe` and
 * `logging/setLevel` are refused with a clear -32601, `initialize` does not
 * offer subscriptions there, and a flood of them leaves memory where it was.
 * Real servers: Express 5 with mountMcpHttp, and the node adapter; raw HTTP.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountMcpHttp } from '../../src/express.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { McpServer } from '../../src/index.js';
import { DEFAULT_REVISION } from '../support/wire.js';
import { expectValidWire } from '../support/wire-schema.js';
import { heapAfterGc, type Json } from './tasks-support.js';

function build(): McpServer {
  const server = new McpServer({ name: 'stateless', version: '1.0.0', capabilities: { logging: {} } });
  server.resource('mem://greeting', { name: 'greeting' }, () => 'hello');
  server.resourceTemplate('mem://items/{id}', { name: 'item' }, (_uri, vars) => `item ${String(vars['id'])}`);
  return server;
}

let expressServer: Server;
let listener: McpHttpListener;
const endpoints: Record<string, string> = {};

beforeAll(async () => {
  const app = express();
  mountMcpHttp(app, build());
  expressServer = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  endpoints['express'] = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}/mcp`;
  listener = await listen(build(), { port: 0, host: '127.0.0.1', keepAliveMs: 0, stateless: true });
  endpoints['node (stateless: true)'] = listener.url;
});
afterAll(async () => {
  await listener.close();
  await new Promise((resolve) => expressServer.close(resolve));
});

async function rpc(url: string, id: number, method: string, params: Json): Promise<{ status: number; message: Json }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': DEFAULT_REVISION },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await response.text();
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
  const message = JSON.parse(data) as Json;
  expectValidWire(message, DEFAULT_REVISION, method);
  return { status: response.status, message };
}

describe.each(['express', 'node (stateless: true)'])('stateless endpoint: %s', (name) => {
  it('initialize does not offer resource subscriptions', async () => {
    const { message } = await rpc(endpoints[name]!, 1, 'initialize', { protocolVersion: DEFAULT_REVISION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    expect(((message['result'] as Json)['capabilities'] as Json)['resources']).toEqual({ listChanged: true });
  });

  it.each([
    ['resources/subscribe', { uri: 'mem://greeting' }, '2026-07-28 subscriptions/listen'],
    ['resources/unsubscribe', { uri: 'mem://greeting' }, '2026-07-28 subscriptions/listen'],
    ['logging/setLevel', { level: 'debug' }, '2026-07-28 per-request log levels'],
  ])('%s is refused with -32601 and a message that says what to do', async (method, params, instead) => {
    const { message } = await rpc(endpoints[name]!, 7, method, params);
    expect(message).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32601,
        message: `Method not found: ${method} is not available on this stateless endpoint, which keeps nothing between requests; use an endpoint with sessions (stateless: false), or ${instead}`,
      },
    });
  });

  it('a flood of subscriptions keeps nothing process-wide (memory after GC)', async () => {
    const url = endpoints[name]!;
    const before = heapAfterGc();
    for (let i = 0; i < 400; i++) {
      const { message } = await rpc(url, i, 'resources/subscribe', { uri: `mem://items/${String(i)}-${'z'.repeat(16_000)}` });
      expect((message['error'] as Json)['code']).toBe(-32601);
    }
    expect(heapAfterGc() - before).toBeLessThan(2 * 1024 * 1024);
    // And the endpoint keeps serving.
    const { message } = await rpc(url, 1000, 'resources/read', { uri: 'mem://greeting' });
    expect(message['result']).toEqual({ contents: [{ uri: 'mem://greeting', text: 'hello' }] });
  });
});
