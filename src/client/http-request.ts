/**
 * One HTTP exchange as the Streamable HTTP transport needs it, over two engines:
 * `node:http` on Node when the caller gave no `fetch` (a keep-alive agent per
 * transport; profiled, fetch's Request/Headers/web-stream machinery was most of
 * the client's CPU per call), and `fetch` (portable, or the caller's own). On Node
 * the transport sends `http:` URLs through http1.ts instead and `https:` here.
 */
import type { AbortSignalLike } from '../protocol/connection.js';
import { toAbortSignal } from './abort.js';
import type * as NodeHttp from 'node:http';
import type * as NodeHttps from 'node:https';
import type { Agent as HttpAgent, IncomingMessage, ClientRequest } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { nodeBuiltin } from '../util/builtin.js';
import { McpTransportError } from './errors.js';

export interface HttpInit {
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  /** Aborting ends the exchange, also while its body is read. */
  signal?: AbortSignalLike | undefined;
}

/** An answer: status, headers, and a body read at most once. */
export interface HttpReply {
  readonly status: number;
  readonly statusText: string;
  /** A header value by lower-case name. */
  header(name: string): string | undefined;
  /** The whole body as text, at most `max` bytes. */
  text(max: number): Promise<string>;
  /** The body as text chunks; leaving the loop early releases it. */
  texts(): AsyncIterable<string>;
  /** Drops the body. */
  discard(): Promise<void>;
}

export interface HttpEngine {
  send(url: URL, init: HttpInit): Promise<HttpReply>;
  /** Ends every exchange in flight and releases pooled connections. */
  close(): void;
}

/**
 * A body read whole (Node engines): every JOIN pieces become one, so a body of one-byte chunks costs
 * its bytes, not a Buffer (~100 bytes of heap) per byte, 1.6 GB for a 16 MiB bound. Each byte is
 * copied twice at most.
 */
export class BodyPieces {
  static readonly JOIN = 1024;
  readonly #parts: Buffer[] = [];
  #pieces: Buffer[] = [];

  add(chunk: Buffer): void {
    this.#pieces.push(chunk);
    if (this.#pieces.length === BodyPieces.JOIN) {
      this.#parts.push(Buffer.concat(this.#pieces));
      this.#pieces = [];
    }
  }

  text(): string {
    const parts = this.#parts;
    const pieces = this.#pieces;
    if (parts.length === 0 && pieces.length === 1) return pieces[0]!.toString('utf8');
    return Buffer.concat(parts.length === 0 ? pieces : [...parts, ...pieces]).toString('utf8');
  }
}

export const tooLong = (max: number, length?: number): McpTransportError =>
  new McpTransportError('protocol', length === undefined ? `The server's answer is longer than maxMessageBytes (${max})` : `The server's answer is ${length} bytes, more than maxMessageBytes (${max})`);

// ---- fetch ---------------------------------------------------------------------------------

export function fetchEngine(fetcher: (input: string | URL, init: RequestInit) => Promise<Response>): HttpEngine {
  return {
    send: async (url, init) => {
      const link = init.signal === undefined ? undefined : toAbortSignal(init.signal);
      try {
        return new FetchReply(await fetcher(url, { method: init.method, headers: init.headers, body: init.body ?? null, signal: link?.signal ?? null }), link?.release);
      } catch (error) {
        link?.release();
        throw error;
      }
    },
    close: () => undefined,
  };
}

/** A fetch answer; `release` unlinks the exchange's signal once its body is read or discarded (it aborts the body read until then). */
class FetchReply implements HttpReply {
  constructor(
    private readonly response: Response,
    private readonly release: () => void = () => undefined,
  ) {}
  get status(): number {
    return this.response.status;
  }
  get statusText(): string {
    return this.response.statusText;
  }
  header(name: string): string | undefined {
    return this.response.headers.get(name) ?? undefined;
  }
  async text(max: number): Promise<string> {
    try {
      const length = Number(this.response.headers.get('content-length') ?? NaN);
      if (length > max) {
        await this.discard();
        throw tooLong(max, length);
      }
      let text = '';
      let bytes = 0;
      const decoder = new TextDecoder();
      for await (const chunk of this.#body()) {
        bytes += chunk.byteLength;
        if (bytes > max) throw tooLong(max);
        text += decoder.decode(chunk, { stream: true });
      }
      return text + decoder.decode();
    } finally {
      this.release();
    }
  }
  async *texts(): AsyncIterable<string> {
    try {
      const decoder = new TextDecoder();
      for await (const chunk of this.#body()) yield decoder.decode(chunk, { stream: true });
    } finally {
      this.release();
    }
  }
  async discard(): Promise<void> {
    try {
      await this.response.body?.cancel().catch(() => undefined);
    } finally {
      this.release();
    }
  }
  #body(): AsyncIterable<Uint8Array> {
    return (this.response.body ?? []) as unknown as AsyncIterable<Uint8Array>;
  }
}

// ---- node:http -----------------------------------------------------------------------------

/**
 * True when `node:http` is the real one (Node, or a runtime that implements it) and can be reached
 * without a static import: `import 'mcpkit/client'` loads no HTTP stack (a stdio-only client never
 * needs it), the first transport made does. Node before 20.16 (no getBuiltinModule) takes fetch.
 */
export const hasNodeHttp =
  typeof process !== 'undefined' && typeof process.versions?.node === 'string' && typeof (process as { getBuiltinModule?: unknown }).getBuiltinModule === 'function';

export function nodeEngine(): HttpEngine {
  const httpModule = nodeBuiltin<typeof NodeHttp>('node:http');
  if (httpModule === undefined) throw new Error('node:http is not available in this runtime');
  let httpsModule: typeof NodeHttps | undefined;
  let http: HttpAgent | undefined;
  let https: HttpsAgent | undefined;
  // Exchanges in flight, ended on close: one set instead of an abort listener per request on a shared signal.
  const live = new Set<ClientRequest>();
  const closed = (): Error => new Error('the transport closed');
  let isClosed = false;
  const attempt = (url: URL, init: HttpInit, retried: boolean): Promise<HttpReply> =>
    new Promise<HttpReply>((resolve, reject) => {
      if (isClosed && init.method !== 'DELETE') return reject(closed());
      const secure = url.protocol === 'https:';
      if (secure) httpsModule ??= nodeBuiltin<typeof NodeHttps>('node:https');
      if (secure && httpsModule === undefined) return reject(new Error('node:https is not available in this runtime'));
      const agent = secure ? (https ??= new httpsModule!.Agent({ keepAlive: true })) : (http ??= new httpModule.Agent({ keepAlive: true }));
      const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
      const headers = body === undefined ? init.headers : { ...init.headers, 'content-length': String(body.length) };
      const signal = init.signal;
      let req: ClientRequest;
      let answered = false;
      const onAbort = (): void => void req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      const done = (): void => {
        live.delete(req);
        signal?.removeEventListener('abort', onAbort);
      };
      try {
        req = (secure ? httpsModule!.request : httpModule.request)(url, { method: init.method, headers, agent }, (res) => {
          answered = true;
          res.once('close', done);
          resolve(new NodeReply(res));
        });
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what http.request threw (an invalid header)
        return reject(error);
      }
      live.add(req);
      req.once('error', (error: NodeJS.ErrnoException) => {
        done();
        if (answered) return; // the reply's reader sees it
        // A kept-alive socket the server closed just as we reused it: the request never reached it.
        if (!retried && req.reusedSocket && error.code === 'ECONNRESET' && signal?.aborted !== true && !isClosed) return resolve(attempt(url, init, true));
        reject(error);
      });
      req.once('close', () => {
        if (!answered) done();
      });
      if (signal !== undefined) {
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
      }
      req.end(body);
    });
  return {
    send: (url, init) => attempt(url, init, false),
    close: () => {
      isClosed = true;
      for (const req of live) req.destroy(closed());
      live.clear();
      // Sockets still answering (the best-effort DELETE) finish first; idle ones go now.
      http?.destroy();
      https?.destroy();
    },
  };
}

class NodeReply implements HttpReply {
  constructor(private readonly res: IncomingMessage) {}
  get status(): number {
    return this.res.statusCode ?? 0;
  }
  get statusText(): string {
    return this.res.statusMessage ?? '';
  }
  header(name: string): string | undefined {
    const value = this.res.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  text(max: number): Promise<string> {
    const res = this.res;
    const length = Number(res.headers['content-length'] ?? NaN);
    if (length > max) {
      res.destroy();
      return Promise.reject(tooLong(max, length));
    }
    return new Promise((resolve, reject) => {
      const body = new BodyPieces();
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > max) {
          res.destroy();
          reject(tooLong(max));
          return;
        }
        body.add(chunk);
      });
      res.once('end', () => resolve(body.text()));
      res.once('error', reject);
      res.once('close', () => {
        if (!res.complete) reject(new Error('the connection closed before the answer was complete'));
      });
    });
  }
  async *texts(): AsyncIterable<string> {
    this.res.setEncoding('utf8');
    for await (const chunk of this.res) yield chunk as string;
    if (!this.res.complete) throw new Error('the connection closed before the stream was complete');
  }
  async discard(): Promise<void> {
    this.res.resume();
  }
}
