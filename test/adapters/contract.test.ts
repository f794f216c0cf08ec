/** Every adapter runs the one contract (test/adapters/contract.ts) on a real server on 127.0.0.1. */
import type { AddressInfo } from 'node:net';
import { serve as serveHono } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createFetchHandler, createNodeHandler, listen } from '../../src/http.js';
import { mountMcpHttp } from '../../src/express.js';
import { fastifyMcp } from '../../src/fastify.js';
import { mcpHono } from '../../src/hono.js';
import type { NodeHandler } from '../../src/http.js';
import { adapterContract } from './contract.js';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';

const local = (port: number) => ({ url: `http://127.0.0.1:${port}/mcp`, origin: `http://127.0.0.1:${port}`, port });

adapterContract('node (listen)', async (factory, options, port) => {
  const listener = await listen(factory, { port, ...options });
  return { ...local(listener.port), close: (graceMs = 0) => listener.close({ graceMs }) };
});

adapterContract('node (createNodeHandler on node:http)', async (factory, options, port) => {
  const handler = createNodeHandler(factory, { path: '/mcp', ...options });
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    ...local(port),
    async close(graceMs = 0) {
      await handler.close({ graceMs });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
});

adapterContract('fetch (createFetchHandler under @hono/node-server)', async (factory, options, port) => {
  const handler = createFetchHandler(factory, { path: '/mcp', ...options });
  const server = serveHono({ fetch: (request, env) => handler(request, env), port, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  return {
    ...local(port),
    async close(graceMs = 0) {
      await handler.close({ graceMs });
      (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
});

adapterContract('Express (mountMcpHttp)', async (factory, options, port) => {
  const app = express();
  const handler = mountMcpHttp(app, factory, options);
  const server = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    ...local((server.address() as AddressInfo).port),
    async close(graceMs = 0) {
      await handler.close({ graceMs });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
});

adapterContract('Fastify (fastifyMcp plugin)', async (factory, options, port) => {
  const app = Fastify();
  let handler: NodeHandler | undefined;
  await app.register(fastifyMcp, { server: factory, ...options, onHandler: (h) => (handler = h) });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    ...local(port),
    async close(graceMs = 0) {
      await handler!.close({ graceMs });
      app.server.closeAllConnections();
      await app.close();
    },
  };
});

adapterContract('Hono (mcpHono middleware under @hono/node-server)', async (factory, options, port) => {
  const app = new Hono();
  const middleware = mcpHono(factory, options);
  app.use(middleware);
  app.get('/', (c) => c.text('home'));
  const server = serveHono({ fetch: app.fetch, port, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  return {
    ...local(port),
    async close(graceMs = 0) {
      await middleware.close({ graceMs });
      (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
});

describe('adapter specifics', () => {
  it('mcpHono hands every other path to the next handler', async () => {
    const app = new Hono();
    app.use(mcpHono(new McpServer({ name: 'x', version: '1' })));
    app.get('/', (c) => c.text('home'));
    expect(await (await app.request('http://127.0.0.1/')).text()).toBe('home');
    expect((await app.request('http://127.0.0.1/elsewhere')).status).toBe(404);
    expect((await app.request('http://127.0.0.1/mcp', { method: 'PUT' })).status).toBe(405);
  });

  it('fastifyMcp refuses an auth.resource that does not name the mounted path', async () => {
    const app = Fastify();
    await expect(app.register(fastifyMcp, { server: new McpServer({ name: 'x', version: '1' }), auth: { resource: 'http://127.0.0.1/other', authorizationServers: ['https://as.example.com'], verify: () => undefined } }).ready()).rejects.toThrow(/does not end with the mounted path "\/mcp"/);
  });
});
