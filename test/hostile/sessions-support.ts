/**
 * Servers for the hostile session tests on every adapter, all on 127.0.0.1
 * (the fetch adapter's test bridge hands over the peer address as Deno does),
 * and a raw client that can choose its loopback source address (127.0.0.x),
 * so per-address quotas can be exercised without leaving the machine.
 */
import { serve as serveHono } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mountMcpHttp } from '../../src/express.js';
import { fastifyMcp } from '../../src/fastify.js';
import { mcpHono } from '../../src/hono.js';
import type { HttpEngineOptions, NodeHandler } from '../../src/http.js';
import type { AuthInfo, ConnectionFactory } from '../../src/protocol/connection.js';
import type { HttpRequest } from '../../src/transports/http/types.js';
import { startFetch, startNode, type TestServer } from '../transports/http/support.js';

export type Start = (factory: ConnectionFactory, options: HttpEngineOptions) => Promise<TestServer>;

/** Express with mountMcpHttp in stateful mode (its default is stateless). */
export const startExpress: Start = async (factory, options) => {
  const app = express();
  const handler = mountMcpHttp(app, factory, { stateless: false, keepAliveMs: 0, ...options });
  return serveOn(createServer(app), '/mcp', (graceMs) => handler.close({ graceMs }));
};

/** Fastify with the fastifyMcp plugin, stateful (its default is stateless). */
export const startFastify: Start = async (factory, options) => {
  const app = Fastify();
  let handler: NodeHandler | undefined;
  await app.register(fastifyMcp, { server: factory, stateless: false, keepAliveMs: 0, ...options, onHandler: (made) => (handler = made) } as Parameters<typeof fastifyMcp>[1]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    port,
    async close(graceMs = 0) {
      await handler!.close({ graceMs });
      app.server.closeAllConnections();
      await app.close();
    },
  };
};

/** Hono with the mcpHono middleware under @hono/node-server, stateful (its default is stateless). */
export const startHono: Start = async (factory, options) => {
  const app = new Hono();
  const middleware = mcpHono(factory, { stateless: false, keepAliveMs: 0, ...options });
  app.use(middleware);
  const server = serveHono({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  return serveOn(server, '/mcp', (graceMs) => middleware.close({ graceMs }), true);
};

export const ADAPTERS: [string, Start][] = [
  ['node', startNode],
  ['fetch', startFetch],
  ['express', startExpress],
];

async function serveOn(server: Server, path: string, closeHandler: (graceMs: number) => Promise<void>, listening = false): Promise<TestServer> {
  if (!listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    origin: `http://127.0.0.1:${port}`,
    port,
    async close(graceMs = 0) {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await closeHandler(graceMs);
      server.closeAllConnections();
      await stopped;
    },
  };
}

/** `Authorization: Bearer <name>` names the subject; no header is anonymous; anything else is refused (401). */
export function bearerAuth(request: HttpRequest): AuthInfo | undefined {
  const header = request.headers['authorization'];
  if (header === undefined) return undefined;
  const match = /^Bearer ([a-z]+)(?:-\d+)?$/.exec(header);
  if (match === null) throw new Error('bad token');
  return { subject: match[1]!, token: header.slice(7), scopes: [] };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request from a chosen loopback source address, read to the end (or to the first chunk for SSE). */
export function requestFrom(
  url: string,
  options: { method?: string; localAddress?: string; headers?: Record<string, string>; body?: unknown; firstChunkOnly?: boolean },
): Promise<RawResponse> {
  const target = new URL(url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'POST',
        localAddress: options.localAddress ?? '127.0.0.1',
        agent: false,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (options.firstChunkOnly === true) {
            resolve({ status: res.statusCode!, headers: res.headers, body: text });
            res.destroy();
          }
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
