/**
 * Client behaviour the demo cannot show: credentials refused with a challenge,
 * a server whose structuredContent breaks its own outputSchema, cancellation
 * reaching the server's handler, and precise option errors.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport, McpError, McpTransportError, StreamableHttpTransport } from '../../src/client.js';
import { McpServer } from '../../src/server/server.js';
import { eventually } from '../support/eventually.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A JSON-RPC endpoint on 127.0.0.1 that answers each POSTed request with `answer`. */
async function endpoint(answer: (message: { id: unknown; method: string }, res: http.ServerResponse) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body || '{}') as { id?: unknown; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      answer(message as { id: unknown; method: string }, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const json = (res: http.ServerResponse, body: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('mcpkit/client', () => {
  it('surfaces a 401 with the server challenge, distinct from protocol errors', async () => {
    const url = await endpoint((_m, res) => {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized: a bearer token is required' } }));
    });
    const error = await new Client().connect(new StreamableHttpTransport(url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpTransportError);
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, wwwAuthenticate: expect.stringContaining('resource_metadata=') });
    expect((error as Error).message).toContain('a bearer token is required');
  });

  it('sends the token provider\'s token on every request', async () => {
    const seen: (string | undefined)[] = [];
    const url = await endpoint((m, res) => json(res, { jsonrpc: '2.0', id: m.id, result: m.method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: {} } : { tools: [] } }));
    servers[0]!.prependListener('request', (req: http.IncomingMessage) => void seen.push(req.headers.authorization));
    let n = 0;
    const client = new Client({ protocolVersion: '2026-07-28' });
    await client.connect(new StreamableHttpTransport(url, { token: () => `t${++n}` }));
    await client.listTools();
    await client.close();
    expect(seen).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('rejects structuredContent that breaks the listed outputSchema (%s)', async (version) => {
    const tool = { name: 'weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] } };
    const url = await endpoint((m, res) => {
      const results: Record<string, unknown> = {
        'server/discover': { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } },
        initialize: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'liar', version: '1' } },
        'tools/list': { tools: [tool] },
        'tools/call': { content: [{ type: 'text', text: '{"temp":"warm"}' }], structuredContent: { temp: 'warm' } },
      };
      json(res, { jsonrpc: '2.0', id: m.id, result: results[m.method] ?? {} });
    });
    const client = new Client({ protocolVersion: version });
    await client.connect(new StreamableHttpTransport(url, { openGetStream: false }));
    await client.listTools();
    const error = await client.callTool('weather', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain('"temp"');
    await client.close();
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('aborting a call reaches the tool handler (%s)', async (version) => {
    const server = new McpServer({ name: 'slow', version: '1.0.0' });
    let aborted = false;
    server.tool('wait', { description: 'Waits until cancelled' }, (_args, ctx) => new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => ((aborted = true), resolve('cancelled')))));
    const client = new Client({ protocolVersion: version });
    await client.connect(new InMemoryTransport(server));
    const controller = new AbortController();
    const call = client.callTool('wait', {}, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
    await eventually(() => aborted);
    await client.close();
  });

  it('names the option a misspelt one was meant to be', () => {
    expect(() => new Client({ requestTimeout: 5 } as never)).toThrow(/unknown option `requestTimeout` in new Client\(\) options — did you mean `requestTimeoutMs`\?/);
    expect(() => new Client({ protocolVersion: '2025-01-01' as never })).toThrow(/protocolVersion must be 'auto' or one of/);
  });
});
