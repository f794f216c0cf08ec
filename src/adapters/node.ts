/** node:http adapter: IncomingMessage/ServerResponse ↔ the engine. No protocol rules here. */
import type * as NodeHttp from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalResource, isLoopbackResource } from '../transports/http/auth/resource.js';
import type { ConnectionFactory } from '../protocol/connection.js';
import { checkEngineKeys, positive } from '../transports/http/options.js';
import { keysOf } from '../util/known-keys.js';
import { createHttpEngine, DEFAULT_MAX_STREAM_BUFFER_BYTES, type CloseOptions, type HttpEngine } from '../transports/http/engine.js';
import type { BodyParts, BodyResult, HeaderMap, HttpEngineOptions, HttpRequest, HttpResponse } from '../transports/http/types.js';
import { nodeBuiltin } from '../util/builtin.js';

export interface NodeHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  readonly engine: HttpEngine;
  /** Shuts the engine down (see HttpEngine.close). */
  close(options?: CloseOptions): Promise<void>;
}

/** What an adapter that writes SSE to a socket adds to the engine's options: the engine never holds unsent bytes, the adapter does. */
export interface StreamBufferOptions {
  /**
   * Bytes an SSE response may hold unsent for a slow client (default 8 MiB);
   * beyond it the connection is dropped (a resumable stream can be resumed).
   */
  maxStreamBufferBytes?: number;
}

export type NodeHandlerOptions = HttpEngineOptions & StreamBufferOptions;

/** The adapter's own keys, taken off before the engine checks the rest. */
export const STREAM_BUFFER_KEYS = keysOf<StreamBufferOptions>({ maxStreamBufferBytes: true });

/** A `(req, res)` handler for node:http (and Express, whose parsed `req.body` it uses). */
export function createNodeHandler(factory: ConnectionFactory, options: NodeHandlerOptions = {}): NodeHandler {
  checkEngineKeys(options, 'createNodeHandler() options', STREAM_BUFFER_KEYS);
  const { maxStreamBufferBytes, ...engineOptions } = options;
  const engine = createHttpEngine(factory, engineOptions);
  const maxBuffered = positive(maxStreamBufferBytes, DEFAULT_MAX_STREAM_BUFFER_BYTES, 'maxStreamBufferBytes');
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    // Without a promise when the engine answers at once: a synchronous tool's answer is written in the tick its body ended.
    // respond() never throws, and writes only the first answer.
    try {
      const answer = engine.respond(new NodeRequest(req, res));
      if (!(answer instanceof Promise)) return respond(res, answer, maxBuffered);
      answer.then(
        (response) => respond(res, response, maxBuffered),
        () => respond(res, INTERNAL_RESPONSE, maxBuffered),
      );
    } catch {
      respond(res, INTERNAL_RESPONSE, maxBuffered);
    }
  };
  return Object.assign(handler, { engine, close: (closeOptions?: CloseOptions) => engine.close(closeOptions) });
}

/**
 * One node:http request as the engine sees it. Nothing watches for a
 * disconnect until something asks (a request answered in the tick its body
 * ended never does); the AbortSignal is created only if something asks for it.
 */
class NodeRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: HeaderMap;
  localPort?: number;
  remoteAddress?: string;
  remotePort?: number;
  peerAddress?: string;
  readonly httpVersion: string;
  private controller: AbortController | undefined;
  private disconnected = false;
  private watching = false;
  private listeners: (() => void)[] | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    this.method = req.method ?? 'GET';
    this.path = q === -1 ? url : url.slice(0, q);
    this.query = q === -1 ? '' : url.slice(q + 1);
    // Node lower-cases names and joins repeats (set-cookie, the exception, is never read).
    this.headers = req.headers as HeaderMap;
    const { localPort, remoteAddress, remotePort } = req.socket;
    if (localPort !== undefined) this.localPort = localPort;
    if (remoteAddress !== undefined) this.remoteAddress = remoteAddress;
    if (remotePort !== undefined) this.remotePort = remotePort;
    this.httpVersion = req.httpVersion;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      this.watch();
      if (this.disconnected) this.controller.abort();
    }
    return this.controller.signal;
  }

  onDisconnect(listener: () => void): void {
    this.watch();
    if (this.disconnected) listener();
    else (this.listeners ??= []).push(listener);
  }

  // A promise, not a callback from the stream's 'end': its reaction runs in the async context the request
  // arrived in (AsyncLocalStorage, an HTTP instrumentation's active span), which an event listener would not.
  readBody(limit: number): Promise<BodyResult> {
    return new Promise((resolve) => readBody(this.req, limit, resolve));
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const res = this.res;
    // Closed before we looked, without finishing: the client is gone already.
    if (res.destroyed && !res.writableFinished) {
      this.disconnected = true;
      return;
    }
    // 'close' before the response finished means the client went away ('on', not 'once': 'close' comes
    // once per response, and once() would wrap the listener in another closure).
    res.on('close', () => {
      if (res.writableFinished || this.disconnected) return;
      this.disconnected = true;
      this.controller?.abort();
      const listeners = this.listeners;
      this.listeners = undefined;
      for (const listener of listeners ?? []) listener();
    });
  }
}

const INTERNAL_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}';

const INTERNAL_RESPONSE: HttpResponse = Object.freeze({ status: 500, headers: Object.freeze({ 'content-type': 'application/json' }), body: INTERNAL_ERROR });

function respond(res: ServerResponse, response: HttpResponse, maxBuffered: number): void {
  try {
    write(res, response, maxBuffered);
  } catch {
    // e.g. a header value Node refuses: a clean 500 if nothing was sent yet, else drop the connection.
    try {
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'content-type': 'application/json' }).end(INTERNAL_ERROR);
    } catch {
      res.destroy();
    }
  }
}

/** The auth resource for a listener: the served URL by default; a loopback resource must name the bound port. */
function servedResource(resource: string | undefined, url: string, port: number): string {
  if (resource === undefined) return url;
  const canonical = canonicalResource(resource);
  if (isLoopbackResource(canonical)) {
    const named = new URL(canonical);
    const namedPort = named.port === '' ? (named.protocol === 'https:' ? 443 : 80) : Number(named.port);
    if (namedPort !== port) throw new TypeError(`auth.resource "${resource}" names port ${namedPort}, but the server listens on ${port}: tokens would be issued for another server`);
  }
  return resource;
}

/** What a body parser in front already decided about a request's body (see mountMcpHttp's error handler). */
const settledBodies = new WeakMap<IncomingMessage, BodyResult>();

/** Internal: makes `readBody` answer `result` for `req` (its stream was consumed by someone else). */
export function settleBody(req: IncomingMessage, result: BodyResult): void {
  settledBodies.set(req, result);
}

/** Calls `resolve` once with the body: at once when a parser in front already read it, else when it ends. */
function readBody(req: IncomingMessage, limit: number, resolve: (body: BodyResult) => void): void {
  const decided = settledBodies.get(req);
  if (decided !== undefined) return resolve(decided);
  const parsed = (req as { body?: unknown }).body;
  if (parsed !== undefined && req.readableEnded) return resolve(alreadyParsed(req, parsed, limit));
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return resolve({ kind: 'too-large' });
  // Most bodies arrive in one chunk: it is decoded as it is, without a list or a copy.
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  // Settles once; the listeners stay (the request is done with either way), which saves three removals per request.
  const finish = (result: BodyResult): void => {
    if (settled) return;
    settled = true;
    first = undefined;
    chunks = undefined;
    resolve(result);
  };
  const onData = (chunk: Buffer): void => {
    if (settled) return;
    size += chunk.length;
    if (size > limit) {
      finish({ kind: 'too-large' });
      req.resume(); // discard the rest
      return;
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  };
  const onEnd = (): void => {
    if (settled) return;
    const body = chunks !== undefined ? Buffer.concat(chunks, size) : first;
    finish({ kind: 'text', text: body === undefined ? '' : body.toString('utf8') });
  };
  req.on('data', onData);
  req.on('end', onEnd);
  // A client gone mid-body: 'error' (ECONNRESET), then 'close'. No 'close' listener: a request closed without
  // either (destroyed by someone else) leaves nothing to answer, and this closure goes with it.
  req.on('error', () => finish({ kind: 'failed' }));
}

/**
 * A body parser ran first (express.json(), express.text(), express.raw()): its
 * result, held to maxBodyBytes all the same (by the declared length, else by
 * the size of the text or of the value serialised again).
 */
function alreadyParsed(req: IncomingMessage, parsed: unknown, limit: number): BodyResult {
  if (Number(req.headers['content-length']) > limit) return { kind: 'too-large' };
  let text: string | undefined;
  if (typeof parsed === 'string') text = parsed;
  else if (parsed instanceof Uint8Array) {
    if (parsed.byteLength > limit) return { kind: 'too-large' };
    text = Buffer.from(parsed).toString('utf8');
  }
  if (text !== undefined) return Buffer.byteLength(text) > limit ? { kind: 'too-large' } : { kind: 'text', text };
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(parsed) ?? '');
  } catch {
    return { kind: 'failed' }; // not JSON data (a cycle, a BigInt): no parser of JSON made it
  }
  return size > limit ? { kind: 'too-large' } : { kind: 'parsed', value: parsed, bytes: size };
}

function write(res: ServerResponse, response: HttpResponse, maxBuffered: number): void {
  if (res.headersSent || res.destroyed) return;
  const { stream, body } = response;
  if (stream !== undefined) {
    res.writeHead(response.status, response.headers);
    res.flushHeaders();
    stream.start({
      write: (chunk) => {
        if (res.writableEnded || res.destroyed) return;
        res.write(chunk);
        // A client this far behind is dropped rather than buffered without bound.
        if (res.writableLength > maxBuffered) res.destroy();
      },
      end: () => {
        if (!res.writableEnded) res.end();
      },
    });
    return;
  }
  if (response.parts !== undefined) return writeParts(res, response, response.parts);
  if (body !== undefined) response.headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(response.status, response.headers);
  res.end(body);
}

/** A body in parts: each made once the socket took the one before (a slow client holds one part, not the whole). */
function writeParts(res: ServerResponse, response: HttpResponse, parts: BodyParts): void {
  res.writeHead(response.status, response.headers);
  const pump = (): void => {
    try {
      for (;;) {
        if (res.destroyed) return;
        const part = parts.next();
        if (part === undefined) return void res.end();
        if (!res.write(part)) return void res.once('drain', pump);
      }
    } catch {
      // An item that cannot be serialised, after the status was sent: the answer cannot be finished.
      res.destroy();
    }
  };
  pump();
}

interface ListenAddress {
  /** Port to listen on (default 0: any free port; read it from the result). */
  port?: number;
  /** Interface to bind (default 127.0.0.1: local clients only). */
  host?: string;
}

export type ListenOptions = NodeHandlerOptions & ListenAddress;

const LISTEN_KEYS = [...keysOf<ListenAddress>({ port: true, host: true }), ...STREAM_BUFFER_KEYS];

export interface McpHttpListener {
  /** The MCP endpoint URL, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly engine: HttpEngine;
  /** Stops accepting, drains in-flight requests within `graceMs`, then closes every connection. */
  close(options?: CloseOptions): Promise<void>;
}

/** Serves the MCP endpoint (default path /mcp) on a new node:http server. */
export async function listen(factory: ConnectionFactory, options: ListenOptions = {}): Promise<McpHttpListener> {
  checkEngineKeys(options, 'listen() options', LISTEN_KEYS);
  const { port = 0, host = '127.0.0.1', path = '/mcp', ...engineOptions } = options;
  // Loaded here, not at import: the build shares this file with every entry (scripts/bundle.mjs), and
  // `import 'mcpkit'` or a stdio server has no use for node:http (test/package/entry-builtins.test.ts);
  // nor has a Worker, whose bundler would refuse even a dynamic import('node:http') without nodejs_compat.
  const http = nodeBuiltin<typeof NodeHttp>('node:http');
  if (http === undefined) throw new TypeError('listen() needs node:http, which this runtime lacks: serve createFetchHandler(server) with the runtime\'s own server (Bun.serve, Deno.serve, a Worker\'s fetch) instead');
  const { createServer } = http;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${bound}${path}`;
  let handler: NodeHandler;
  try {
    // The engine is made once the port is known: the auth resource defaults to the served URL.
    const auth = engineOptions.auth === undefined ? undefined : { ...engineOptions.auth, resource: servedResource(engineOptions.auth.resource, url, bound) };
    // The server card lists the URL served here unless the caller names the public one.
    const card = engineOptions.serverCard === undefined ? undefined : { url, ...engineOptions.serverCard };
    handler = createNodeHandler(factory, { ...engineOptions, path, ...(auth === undefined ? {} : { auth }), ...(card === undefined ? {} : { serverCard: card }) } as NodeHandlerOptions);
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  server.on('request', handler);
  let closing: Promise<void> | undefined;
  return {
    url,
    port: bound,
    server,
    engine: handler.engine,
    close(closeOptions?: CloseOptions): Promise<void> {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await handler.close(closeOptions);
        server.closeIdleConnections();
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
