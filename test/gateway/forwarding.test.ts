/**
 * What the forwarding path of a proxied tools/call must get right, both downstream eras, every
 * message the gateway sends the downstream client schema-checked: an upstream's error result and
 * its JSON-RPC error come back exactly as the upstream sent them, a result over the upstream
 * transport's size bound is refused, and a hostile upstream's garbage is a clear error while the
 * gateway goes on serving.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcProtocolError, McpServer, ToolError } from '../../src/index.js';
import { listen } from '../../src/adapters/node.js';
import { McpError, StreamableHttpTransport } from '../../src/client.js';
import { createGateway } from '../../src/gateway.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { checkedClient } from './wire-fetch.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

function upstreamServer(): McpServer {
  const server = new McpServer({ name: 'upstream', version: '1.0.0' });
  server.tool('fails', { description: 'an error result with structured content' }, () => {
    throw new ToolError('the disk is full', { structuredContent: { free: 0 } });
  });
  server.tool('refuses', { description: 'a JSON-RPC error with data' }, () => {
    throw new JsonRpcProtocolError(-32011, 'not on a Tuesday', { retryAfter: 'Wednesday' });
  });
  server.tool('big', { description: 'a result of 200 000 characters' }, () => 'x'.repeat(200_000));
  server.tool('small', { description: 'a short text' }, () => 'ok');
  return server;
}

/** A result without what each hop stamps on its own (resultType, its serverInfo in _meta). */
function body(result: Record<string, unknown>): Record<string, unknown> {
  const { resultType: _resultType, _meta, ...rest } = result;
  const meta = { ...(_meta as Record<string, unknown> | undefined) };
  delete meta['io.modelcontextprotocol/serverInfo'];
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
}

async function serveHttp(server: McpServer): Promise<string> {
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  return listener.url;
}

async function gatewayUrl(upstreamUrl: string, maxMessageBytes?: number): Promise<string> {
  const gateway = createGateway(
    { url: upstreamUrl },
    { proxy: maxMessageBytes === undefined ? {} : { transport: () => new StreamableHttpTransport(upstreamUrl, { maxMessageBytes }) } },
  );
  cleanup.push(() => gateway.close());
  expect(await gateway.ready()).toEqual([]);
  return serveHttp(gateway.server);
}

describe.each([LEGACY, MODERN] as const)('a proxied tools/call, %s downstream', (version) => {
  it('an upstream error result comes back as the upstream sent it', async () => {
    const upstream = await serveHttp(upstreamServer());
    const direct = await checkedClient(upstream, version, cleanup);
    const proxied = await checkedClient(await gatewayUrl(upstream), version, cleanup);
    const expected = await direct.client.callTool('fails', {});
    expect(expected.isError).toBe(true);
    expect(body(await proxied.client.callTool('fails', {}))).toEqual(body(expected));
    expect(proxied.wire.problems).toEqual([]);
  });

  it('an upstream JSON-RPC error comes back with its code, message and data', async () => {
    const upstream = await serveHttp(upstreamServer());
    const { client, wire } = await checkedClient(await gatewayUrl(upstream), version, cleanup);
    const error = await client.callTool('refuses', {}).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32011);
    expect((error as McpError).message).toContain('not on a Tuesday');
    expect((error as McpError).data).toEqual({ retryAfter: 'Wednesday' });
    expect(wire.problems).toEqual([]);
  });

  it('a result over the upstream transport\'s size bound is refused, and the next call is answered', async () => {
    const upstream = await serveHttp(upstreamServer());
    const { client, wire } = await checkedClient(await gatewayUrl(upstream, 64 * 1024), version, cleanup);
    const error = await client.callTool('big', {}).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32603);
    expect((error as McpError).message).toMatch(/maxMessageBytes \(65536\)/);
    expect(body(await client.callTool('small', {}))).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(wire.problems).toEqual([]);
  });
});

/**
 * A legacy upstream that answers tools/call with garbage: a result that is not an object, a body
 * that is not JSON, JSON that holds no answer to the call (another id, only a notification, not
 * JSON-RPC, nothing), a body over the gateway's bound (declared, or streamed chunked), a body cut
 * off by a closed connection.
 */
async function hostileUpstream(): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      const answer = (result: unknown): void => void res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'hostile' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      if (message.id === undefined) return void res.writeHead(202).end();
      if (message.method === 'initialize') return answer({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '0' } });
      if (message.method === 'tools/list') return answer({ tools: [...HOSTILE.map(([name]) => name), 'fine'].map((name) => ({ name, inputSchema: { type: 'object' } })) });
      if (message.method !== 'tools/call') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } }));
      const json = (text: string): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(text);
      switch (message.params?.name) {
        case 'number':
          return answer(42);
        case 'text':
          return json('{"jsonrpc": "2.0", "id": ');
        case 'other_id':
          return json(JSON.stringify({ jsonrpc: '2.0', id: Number(message.id) + 1000, result: { content: [] } }));
        case 'notification_only':
          return json(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'no answer here' } }));
        case 'not_rpc':
          return json('{"hello":"world"}');
        case 'empty':
          return json('');
        case 'huge':
          return json(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'x'.repeat(8192) }] } }));
        case 'huge_chunked':
          res.writeHead(200, { 'content-type': 'application/json' });
          for (let i = 0; i < 8; i++) res.write(i === 0 ? `{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"` : 'x'.repeat(1024));
          return void res.end('"}]}}');
        case 'cut':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.write('{"jsonrpc":"2.0",');
          return void setTimeout(() => res.destroy(), 5);
      }
      return answer({ content: [{ type: 'text', text: 'fine' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** What each hostile tool answers, and the error the downstream client gets for it. */
const HOSTILE: [string, RegExp][] = [
  ['number', /not an object/],
  ['text', /body that is not JSON/],
  ['other_id', /JSON that holds no response to request/],
  ['notification_only', /JSON that holds no response to request/],
  ['not_rpc', /JSON that holds no response to request/],
  ['empty', /with an empty body/],
  ['huge', /than maxMessageBytes \(4096\)/],
  ['huge_chunked', /than maxMessageBytes \(4096\)/],
  ['cut', /closed before the answer was complete/],
];

describe('a hostile upstream behind the gateway', () => {
  it.each([LEGACY, MODERN] as const)('%s downstream: every malformed or oversized upstream answer fails its call with a precise -32603; the gateway goes on', async (version) => {
    const { client, wire } = await checkedClient(await gatewayUrl(await hostileUpstream(), 4096), version, cleanup);
    for (const [name, why] of HOSTILE) {
      const error = await client.callTool(name, {}).then(() => undefined, (e: unknown) => e);
      expect(error, name).toBeInstanceOf(McpError);
      expect((error as McpError).code, name).toBe(-32603);
      expect((error as McpError).message, name).toMatch(why);
      expect(body(await client.callTool('fine', {})), `fine after ${name}`).toEqual({ content: [{ type: 'text', text: 'fine' }] });
    }
    expect(wire.problems).toEqual([]);
  });
});
