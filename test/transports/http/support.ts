/** Test support for the HTTP transport: servers on 127.0.0.1:0 for the node and fetch adapters, raw-HTTP and SSE helpers. */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonRpcMessage } from '../../../src/jsonrpc/message.js';
import type { ConnectionFactory } from '../../../src/protocol/connection.js';
import { createFetchHandler, listen, type NodeHandlerOptions } from '../../../src/http.js';
import type { ClusterChannel, ClusterListener, ClusterMessage } from '../../../src/stores/shared-sessions.js';

import { LEGACY as PROTOCOL } from '../../support/revisions.js';

export { PROTOCOL };

export interface TestServer {
  url: string;
  origin: string;
  port: number;
  close(graceMs?: number): Promise<void>;
}

/** The node adapter via listen() on 127.0.0.1:0. */
export async function startNode(factory: ConnectionFactory, options: NodeHandlerOptions = {}): Promise<TestServer> {
  const listener = await listen(factory, { port: 0, keepAliveMs: 0, ...options });
  return {
    url: listener.url,
    origin: new URL(listener.url).origin,
    port: listener.port,
    close: (graceMs = 0) => listener.close({ graceMs }),
  };
}

/**
 * The fetch adapter behind a minimal node:http → Request bridge (what Bun/Deno do natively),
 * handing the peer address over as Deno's `info.remoteAddr` does.
 */
/** `port` 0 (the default) lets the OS choose; a given port fails with EADDRINUSE when it is taken. */
export async function startFetch(factory: ConnectionFactory, options: NodeHandlerOptions = {}, port = 0): Promise<TestServer> {
  const handler = createFetchHandler(factory, { path: '/mcp', keepAliveMs: 0, ...options });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void bridge(handler, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    origin: `http://127.0.0.1:${bound}`,
    port: bound,
    async close(graceMs = 0) {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close({ graceMs });
      server.closeAllConnections();
      await stopped;
    },
  };
}

async function bridge(handler: (request: Request, context: unknown) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: req, duplex: 'half' } : {}),
  });
  const response = await handler(request, { remoteAddr: { hostname: req.socket.remoteAddress, port: req.socket.remotePort } });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.flushHeaders();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  controller.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // client gone
  }
  res.end();
}

export const ACCEPT_BOTH = 'application/json, text/event-stream';

export function postHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...extra };
}

export function rpc(id: number | string, method: string, params?: Record<string, unknown>): JsonRpcMessage {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

export function initializeBody(id: number | string = 0, protocolVersion = PROTOCOL): JsonRpcMessage {
  return rpc(id, 'initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } });
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: postHeaders(headers), body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** Opens a session (initialize + initialized) and answers its id. */
export async function openSession(url: string): Promise<string> {
  const response = await post(url, initializeBody());
  const id = response.headers.get('mcp-session-id');
  await response.text();
  if (response.status !== 200 || id === null) throw new Error(`initialize failed: ${response.status}`);
  const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(id));
  await initialized.text();
  return id;
}

export function sessionHeaders(id: string): Record<string, string> {
  return { 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL };
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** Reads SSE events from a response body; stops early once `until` says so. */
export async function readEvents(response: Response, until?: (event: SseEvent, all: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const body = response.body;
  if (body === null) return events;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let current: SseEvent = { data: '' };
  let hasData = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          if (hasData || current.id !== undefined || current.retry !== undefined) {
            events.push(current);
            if (until?.(current, events) === true) {
              await reader.cancel();
              return events;
            }
          }
          current = { data: '' };
          hasData = false;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const raw = colon === -1 ? '' : line.slice(colon + 1);
        const text = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'data') {
          current.data = hasData ? `${current.data}\n${text}` : text;
          hasData = true;
        } else if (field === 'id') current.id = text;
        else if (field === 'event') current.event = text;
        else if (field === 'retry') current.retry = Number(text);
      }
    }
  } catch {
    // stream aborted
  }
  return events;
}

/** The JSON-RPC messages among SSE events (priming events and comments left out). */
export function messages(events: SseEvent[]): JsonRpcMessage[] {
  return events.filter((e) => e.data !== '' && e.event !== 'endpoint').map((e) => JSON.parse(e.data) as JsonRpcMessage);
}

export function isResponseTo(id: number | string): (event: SseEvent) => boolean {
  return (event) => event.data !== '' && (JSON.parse(event.data) as { id?: unknown; method?: unknown }).id === id && !('method' in (JSON.parse(event.data) as object));
}

/** A request with any headers (fetch() may not set Host). */
export function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method ?? 'POST', headers: init.headers ?? {} }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

export { eventually } from '../../support/eventually.js';

/** Instances in one process: what one sends, the others hear (as on Redis pub/sub). */
export function memoryChannels(): (id: string) => ClusterChannel {
  const listeners = new Map<string, ClusterListener>();
  return (instanceId) => ({
    instanceId,
    send: async (to: string, message: ClusterMessage) => listeners.get(to)?.(message),
    broadcast: async (message: ClusterMessage) => {
      for (const listener of [...listeners.values()]) listener(message);
    },
    listen: async (listener: ClusterListener) => {
      listeners.set(instanceId, listener);
      return () => void listeners.delete(instanceId);
    },
  });
}
