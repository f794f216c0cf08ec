/** mcpkit/express: mountMcpHttp on a real Express 5 app. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mountMcpHttp } from '../../../src/express.js';
import { buildServer } from './fixtures.js';
import { eventually, initializeBody, post, rawRequest, rpc } from './support.js';

let httpServer: Server | undefined;
afterEach(async () => {
  httpServer?.closeAllConnections();
  await new Promise((resolve) => httpServer?.close(resolve) ?? resolve(undefined));
  httpServer = undefined;
});

async function serve(app: express.Express): Promise<string> {
  httpServer = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => httpServer!.once('listening', () => resolve()));
  return `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
}

describe('mountMcpHttp', () => {
  it('serves MCP statelessly at /mcp next to the app’s own routes', async () => {
    const { server: mcp } = buildServer();
    const app = express();
    app.get('/health', (_req, res) => {
      res.json({ ok: true });
    });
    mountMcpHttp(app, mcp);
    const base = await serve(app);
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
    const init = await post(`${base}/mcp`, initializeBody());
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    await init.text();
    const call = await post(`${base}/mcp`, rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'express' } }));
    expect(await call.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'express' }] } });
    const get = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });

  it('works behind express.json() (an already parsed body)', async () => {
    const { server: mcp } = buildServer();
    const app = express();
    app.use(express.json());
    mountMcpHttp(app, mcp, { path: '/api/mcp' });
    const base = await serve(app);
    const call = await post(`${base}/api/mcp`, [rpc(1, 'tools/list'), rpc(2, 'tools/call', { name: 'echo', arguments: { text: 'parsed' } })]);
    const body = (await call.json()) as { id: number; result: unknown }[];
    expect(body.map((r) => r.id)).toEqual([1, 2]);
    expect(body[1]!.result).toEqual({ content: [{ type: 'text', text: 'parsed' }] });
  });

  it('does not serialize requests: a fast call completes while a slow one waits', async () => {
    const { server: mcp, gates } = buildServer();
    const app = express();
    mountMcpHttp(app, mcp);
    const base = await serve(app);
    const slow = post(`${base}/mcp`, rpc(1, 'tools/call', { name: 'wait', arguments: { gate: 'slow' } }));
    await eventually(() => gates.waiting('slow'));
    const fast = await post(`${base}/mcp`, rpc(2, 'tools/call', { name: 'echo', arguments: { text: 'fast' } }));
    expect(await fast.json()).toMatchObject({ id: 2 });
    expect(gates.completed).toEqual(['echo:fast']);
    gates.open('slow');
    expect(await (await slow).json()).toMatchObject({ id: 1 });
    expect(gates.completed).toEqual(['echo:fast', 'wait:slow']);
  });

  it('keeps DNS-rebinding protection on; allowedHosts widens it', async () => {
    const app = express();
    mountMcpHttp(app, buildServer().server);
    mountMcpHttp(app, buildServer().server, { path: '/public', security: { allowedHosts: ['mcp.example.com'] } });
    const base = await serve(app);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const body = JSON.stringify(initializeBody());
    expect((await rawRequest(`${base}/mcp`, { headers: { ...headers, host: 'evil.example.com' }, body })).status).toBe(403);
    expect((await rawRequest(`${base}/mcp`, { headers, body })).status).toBe(200);
    expect((await rawRequest(`${base}/public`, { headers: { ...headers, host: 'mcp.example.com' }, body })).status).toBe(200);
    expect((await rawRequest(`${base}/public`, { headers, body })).status).toBe(403);
  });

  it('serves the SDK v1 client and closes with the returned handler', async () => {
    const { server: mcp } = buildServer();
    const app = express();
    const handler = mountMcpHttp(app, mcp);
    const base = await serve(app);
    const client = new Client({ name: 'v1', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    expect((await client.callTool({ name: 'echo', arguments: { text: 'sdk' } })).content).toEqual([{ type: 'text', text: 'sdk' }]);
    await client.close();
    await handler.close({ graceMs: 0 });
    expect((await post(`${base}/mcp`, initializeBody())).status).toBe(503);
  });
});
