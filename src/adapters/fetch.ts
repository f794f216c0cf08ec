/** Web-standard adapter: (Request) => Promise<Response> for Bun, Deno, Workers, Hono. No protocol rules here. */
import type { ConnectionFactory } from '../protocol/connection.js';
import { checkEngineKeys, positive } from '../transports/http/options.js';
import { keysOf } from '../util/known-keys.js';
import type { StreamBufferOptions } from './node.js';
import { createHttpEngine, DEFAULT_MAX_STREAM_BUFFER_BYTES, type CloseOptions, type HttpEngine } from '../transports/http/engine.js';
import type { BodyParts, BodyResult, HttpEngineOptions, HttpRequest, HttpResponse } from '../transports/http/types.js';

export interface FetchHandler {
  /** `context` is the runtime's second handler argument (Deno's `info`, Bun's `server`), used for the remote address. */
  (request: Request, context?: unknown): Promise<Response>;
  readonly engine: HttpEngine;
  close(options?: CloseOptions): Promise<void>;
}

const encoder = new TextEncoder();
const INTERNAL_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}';

interface FetchAdapterOptions extends StreamBufferOptions {
  /**
   * The caller's IP address, for per-client quotas of unauthenticated callers.
   * Default: Deno's `info.remoteAddr.hostname`, Bun's `server.requestIP(request).address`,
   * else unknown (all such callers then share one quota).
   */
  remoteAddress?: (request: Request, context: unknown) => string | undefined;
}

export type FetchHandlerOptions = HttpEngineOptions & FetchAdapterOptions;

const FETCH_KEYS = keysOf<FetchAdapterOptions>({ remoteAddress: true, maxStreamBufferBytes: true });

export function createFetchHandler(factory: ConnectionFactory, options: FetchHandlerOptions = {}): FetchHandler {
  checkEngineKeys(options, 'createFetchHandler() options', FETCH_KEYS);
  const { remoteAddress: addressOf, maxStreamBufferBytes, ...engineOptions } = options;
  const engine = createHttpEngine(factory, engineOptions);
  const maxBuffered = positive(maxStreamBufferBytes, DEFAULT_MAX_STREAM_BUFFER_BYTES, 'maxStreamBufferBytes');
  const handler = async (incoming: Request, context?: unknown): Promise<Response> => {
    const url = new URL(incoming.url);
    const controller = new AbortController();
    if (incoming.signal.aborted) controller.abort();
    else incoming.signal.addEventListener('abort', () => controller.abort(), { once: true });
    const headers: Record<string, string> = {};
    incoming.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // Runtimes may keep Host only in the URL.
    headers['host'] ??= url.host;
    const request: HttpRequest = {
      method: incoming.method.toUpperCase(),
      path: url.pathname,
      query: url.search.length > 0 ? url.search.slice(1) : '',
      headers,
      readBody: (limit) => readBody(incoming, limit),
      signal: controller.signal,
    };
    const peer = addressOf === undefined ? runtimePeer(incoming, context) : { address: addressOf(incoming, context), port: undefined };
    if (peer?.address !== undefined) request.remoteAddress = peer.address;
    if (peer?.port !== undefined) request.remotePort = peer.port;
    try {
      return toResponse(await engine.handle(request), controller, maxBuffered);
    } catch {
      // The engine answers its own failures; this is the last line, so the runtime never sees a rejection.
      return new Response(INTERNAL_ERROR, { status: 500, headers: { 'content-type': 'application/json' } });
    }
  };
  return Object.assign(handler, { engine, close: (closeOptions?: CloseOptions) => engine.close(closeOptions) });
}

interface Peer {
  address: string | undefined;
  port: number | undefined;
}

/** The peer's address and port as Deno (`info.remoteAddr`) and Bun (`server.requestIP`) expose them. */
function runtimePeer(request: Request, context: unknown): Peer | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const { remoteAddr, requestIP } = context as { remoteAddr?: { hostname?: unknown; port?: unknown }; requestIP?: unknown };
  if (typeof remoteAddr?.hostname === 'string') return { address: remoteAddr.hostname, port: portOf(remoteAddr.port) };
  if (typeof requestIP === 'function') {
    try {
      const ip = (requestIP as (request: Request) => { address?: unknown; port?: unknown } | null).call(context, request);
      if (typeof ip?.address === 'string') return { address: ip.address, port: portOf(ip.port) };
    } catch {
      // Not Bun's server after all.
    }
  }
  return undefined;
}

function portOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65536 ? value : undefined;
}

async function readBody(request: Request, limit: number): Promise<BodyResult> {
  if (Number(request.headers.get('content-length')) > limit) return { kind: 'too-large' };
  const body = request.body;
  if (body === null) return { kind: 'text', text: '' };
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        // The body is refused (413) either way; a failed cancel leaves nothing to clean up.
        void reader.cancel().catch(() => undefined);
        return { kind: 'too-large' };
      }
      chunks.push(value);
    }
  } catch {
    return { kind: 'failed' };
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'text', text: new TextDecoder().decode(bytes) };
}

function toResponse(response: HttpResponse, controller: AbortController, maxBuffered: number): Response {
  const { stream, parts } = response;
  if (parts !== undefined) return new Response(partsStream(parts), { status: response.status, headers: response.headers });
  if (stream === undefined) {
    return new Response(response.body ?? null, { status: response.status, headers: response.headers });
  }
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start(out) {
      stream.start({
        write(chunk) {
          if (closed) return;
          try {
            out.enqueue(encoder.encode(chunk));
          } catch {
            // The runtime closed the body under us: the client is gone.
            closed = true;
            controller.abort();
            return;
          }
          // A client this far behind is dropped rather than buffered without bound.
          if ((out.desiredSize ?? 0) < 0) {
            closed = true;
            out.error(new Error('client too slow'));
            controller.abort();
          }
        },
        end() {
          if (closed) return;
          closed = true;
          out.close();
        },
      });
    },
    cancel() {
      // The client stopped reading: it went away.
      closed = true;
      controller.abort();
    },
  }, byteStrategy(maxBuffered));
  return new Response(body, { status: response.status, headers: response.headers });
}

/** A body in parts, each made when the runtime pulls for it. */
function partsStream(parts: BodyParts): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(out) {
        try {
          const part = parts.next();
          if (part === undefined) out.close();
          else out.enqueue(encoder.encode(part));
        } catch (error) {
          // An item that cannot be serialised, after the status was sent: the answer cannot be finished.
          out.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/** Counts queued bytes so `desiredSize` goes negative past the limit. */
function byteStrategy(highWaterMark: number): QueuingStrategy<Uint8Array> {
  return { highWaterMark, size: (chunk) => chunk.byteLength };
}

/** The remote address alone, for adapters over this one (Hono) that read their own runtime's context first. */
export function runtimeRemoteAddress(request: Request, context: unknown): string | undefined {
  return runtimePeer(request, context)?.address;
}
