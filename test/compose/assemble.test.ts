import type { AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleMcpServer, McpAssemblyError, type McpToolProvider } from '../../src/index.js';
import { mountMcpHttp } from '../../src/express.js';
import { expectValidWire } from '../support/wire-schema.js';

const echoSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

function provider(namespace: string, names: string[]): McpToolProvider {
  return {
    namespace,
    tools: names.map((name) => ({
      name,
      description: `${name} tool`,
      inputSchema: echoSchema,
      handler: async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
    })),
  };
}

async function call(server: ReturnType<typeof assembleMcpServer>, name: string, args: unknown): Promise<unknown> {
  const connection = server.openConnection();
  return connection.handleMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
}

describe('assembleMcpServer (second seed)', () => {
  it('registers every tool under ${namespace}_${name}, in provider order, with the plain JSON Schema advertised as given', async () => {
    const server = assembleMcpServer([provider('decisions', ['read_catalog', 'write']), provider('costs', ['estimate'])], { name: 'studio', version: '1.2.3' });
    const response = await server.openConnection().handleMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        tools: [
          { name: 'decisions_read_catalog', description: 'read_catalog tool', inputSchema: echoSchema },
          { name: 'decisions_write', description: 'write tool', inputSchema: echoSchema },
          { name: 'costs_estimate', description: 'estimate tool', inputSchema: echoSchema },
        ],
      },
    });
    expectValidWire(response, '2025-11-25', 'tools/list');
    expect(server.getMetadata()).toMatchObject({ name: 'studio', version: '1.2.3' });
  });

  it.each([
    ['a name with a dash', provider('ns', ['bad-name']), /Invalid tool name "bad-name" in namespace "ns"/],
    ['an empty name', provider('ns', ['']), /Invalid tool name ""/],
    ['a namespace with a dot', provider('a.b', ['ok']), /Invalid provider namespace "a.b"/],
  ])('throws at assembly on %s', (_label, bad, message) => {
    expect(() => assembleMcpServer([bad])).toThrow(McpAssemblyError);
    expect(() => assembleMcpServer([bad])).toThrow(message);
  });

  it('throws at assembly on a duplicate wire name, even across providers', () => {
    expect(() => assembleMcpServer([provider('a', ['b_c']), provider('a_b', ['c'])])).toThrow(
      'Duplicate tool name "a_b_c": "a.b_c" and "a_b.c" both map to it',
    );
  });

  it('hands the raw arguments to the handler, which validates them itself', async () => {
    const server = assembleMcpServer([provider('ns', ['echo'])]);
    // The schema requires `text`; the seed's handlers own validation, so the call reaches the handler.
    expect(await call(server, 'ns_echo', { other: 1 })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: '{"other":1}' }] },
    });
  });

  it('turns an unexpected throw into an isError result carrying only the message', async () => {
    const server = assembleMcpServer([
      {
        namespace: 'ns',
        tools: [{ name: 'boom', description: 'fails', inputSchema: { type: 'object' }, handler: () => Promise.reject(new Error('database unreachable')) }],
      },
    ]);
    const response = await call(server, 'ns_boom', {});
    expect(response).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'database unreachable' }], isError: true } });
    expect(JSON.stringify(response)).not.toContain('at ');
  });
});

describe('mountMcpHttp on Express', () => {
  let http: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
    http = undefined;
  });

  async function start(providers: McpToolProvider[], options: Parameters<typeof mountMcpHttp>[2] = {}): Promise<string> {
    const app = express();
    app.use(express.json());
    mountMcpHttp(app, assembleMcpServer(providers), options);
    http = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => http!.once('listening', () => resolve()));
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  }

  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  it('serves requests concurrently: a slow call does not delay a fast one (the seed serialized them)', async () => {
    let releaseSlow!: () => void;
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    const order: string[] = [];
    const url = await start([
      {
        namespace: 'ns',
        tools: [
          { name: 'slow', description: 'waits', inputSchema: { type: 'object' }, handler: async () => { await slowGate; order.push('slow'); return { content: [{ type: 'text', text: 'slow' }] }; } },
          { name: 'fast', description: 'answers', inputSchema: { type: 'object' }, handler: async () => { order.push('fast'); return { content: [{ type: 'text', text: 'fast' }] }; } },
        ],
      },
    ]);
    const post = (id: number, name: string): Promise<Response> =>
      fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }) });
    const slow = post(1, 'ns_slow');
    const fast = await post(2, 'ns_fast');
    // The fast answer arrived while the slow call is still parked on its gate.
    expect(await fast.json()).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'fast' }] } });
    expect(order).toEqual(['fast']);
    releaseSlow();
    expect(await (await slow).json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'slow' }] } });
    expect(order).toEqual(['fast', 'slow']);
  });

  it('rejects a foreign Host (DNS rebinding) with 403 and accepts configured allowedHosts', async () => {
    const url = new URL(await start([provider('ns', ['echo'])]));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    // fetch() will not send a custom Host header; node:http will.
    const status = (host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: url.port, path: url.pathname, method: 'POST', headers: { ...headers, host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.once('error', reject);
        req.end(body);
      });
    expect(await status(`evil.example.com:${url.port}`)).toBe(403);
    expect(await status(`localhost:${url.port}`)).toBe(200);
  });
});
