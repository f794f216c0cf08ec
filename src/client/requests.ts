/**
 * Requests in flight: ids, timeouts (optionally restarted by progress), abort signals,
 * progress tokens, and settling each from the server's response. Bounded by `maxPendingRequests`.
 */
import type { JsonRpcId, JsonRpcRequest } from '../jsonrpc/message.js';
import { isPlainObject } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/errors.js';
import { onAbort as linkAbort } from './abort.js';
import { McpError, McpTransportError } from './errors.js';
import type { Json, RequestOptions } from './options.js';
import type { OutboundInfo } from './transport.js';

interface Pending {
  method: string;
  resolve(result: Json): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  restart?: (() => void) | undefined;
  onProgress?: RequestOptions['onProgress'];
}

/** What one request needs from the client around it. */
export interface Outgoing {
  method: string;
  options: RequestOptions;
  timeoutMs: number;
  /** The message and its transport facts, once the id and progress token are known. */
  build(id: number, progressToken: number | undefined, stream: AbortSignal): { message: JsonRpcRequest; info: OutboundInfo };
  send(message: JsonRpcRequest, info: OutboundInfo): Promise<void>;
  /** Tells the server the request is abandoned (`notifications/cancelled`). */
  cancel(id: number, reason: string): void;
}

export class RequestTable {
  readonly #pending = new Map<JsonRpcId, Pending>();
  readonly #progress = new Map<string | number, Pending>();
  #nextId = 1;

  constructor(
    private readonly max: number,
    private readonly safely: (run: () => void) => void,
  ) {}

  /** Sends a request and settles with its result, or rejects (McpError, McpTransportError). */
  start(out: Outgoing): Promise<Json> {
    const { method, options, timeoutMs } = out;
    const signal = options.signal;
    if (signal?.aborted === true) return Promise.reject(new McpTransportError('aborted', `${method} was aborted before it was sent`, { cause: signal.reason }));
    if (this.#pending.size >= this.max) return Promise.reject(new McpTransportError('limit', `${this.max} requests are already in flight (maxPendingRequests)`));
    const id = this.#nextId++;
    const progressToken = options.onProgress === undefined ? undefined : id;
    // Aborted to end this request's response stream (2026-07-28 over HTTP cancels that way).
    const stream = new AbortController();
    const { message, info } = out.build(id, progressToken, stream.signal);
    return new Promise<Json>((resolve, reject) => {
      let unlink: (() => void) | undefined;
      const cleanup = (): void => {
        if (entry.timer !== undefined) clearTimeout(entry.timer);
        this.#pending.delete(id);
        if (progressToken !== undefined) this.#progress.delete(progressToken);
        unlink?.();
      };
      const cancel = (reason: string): void => {
        stream.abort();
        out.cancel(id, reason);
      };
      const onAbort = (): void => {
        cleanup();
        cancel(String(signal?.reason ?? 'aborted'));
        reject(new McpTransportError('aborted', `${method} was aborted`, { cause: signal?.reason }));
      };
      const arm = (): ReturnType<typeof setTimeout> | undefined =>
        timeoutMs > 0
          ? setTimeout(() => {
              cleanup();
              cancel(`timed out after ${timeoutMs} ms`);
              reject(new McpTransportError('timeout', `${method} did not finish within ${timeoutMs} ms`));
            }, timeoutMs)
          : undefined;
      const entry: Pending = {
        method,
        resolve: (result) => (cleanup(), resolve(result)),
        reject: (error) => (cleanup(), reject(error)),
        timer: arm(),
        onProgress: options.onProgress,
      };
      if (options.resetTimeoutOnProgress === true) {
        entry.restart = () => {
          if (entry.timer !== undefined) clearTimeout(entry.timer);
          entry.timer = arm();
        };
      }
      this.#pending.set(id, entry);
      if (progressToken !== undefined) this.#progress.set(progressToken, entry);
      // One listener on a signal shared by many calls, however many there are.
      if (signal !== undefined) unlink = linkAbort(signal, onAbort);
      out.send(message, info).catch((error: unknown) => {
        if (this.#pending.get(id) === entry) entry.reject(error instanceof Error ? error : new McpTransportError('unreachable', String(error)));
      });
    });
  }

  /** Settles the request a response answers; false when no request has that id. */
  settle(id: JsonRpcId, response: { result: unknown } | { error: { code: number; message: string; data?: unknown } }, transportFailure: boolean): boolean {
    const pending = this.#pending.get(id);
    if (pending === undefined) return false;
    if ('error' in response) {
      const { code, message: text, data } = response.error;
      if (transportFailure) pending.reject(new McpTransportError('unreachable', text));
      else pending.reject(new McpError(pending.method, code, String(text).slice(0, 4096), data));
    } else if (!isPlainObject(response.result)) pending.reject(new McpError(pending.method, ErrorCode.InternalError, 'The server answered with a result that is not an object'));
    else pending.resolve(response.result);
    return true;
  }

  /** A `notifications/progress`: to the request whose token it names. */
  progress(params: Json): void {
    const token = params['progressToken'];
    const pending = typeof token === 'string' || typeof token === 'number' ? this.#progress.get(token) : undefined;
    if (pending === undefined || typeof params['progress'] !== 'number') return;
    pending.restart?.();
    const progress: { progress: number; total?: number; message?: string } = { progress: params['progress'] };
    if (typeof params['total'] === 'number') progress.total = params['total'];
    if (typeof params['message'] === 'string') progress.message = params['message'];
    this.safely(() => pending.onProgress?.(progress));
  }

  failAll(error: Error): void {
    for (const pending of [...this.#pending.values()]) pending.reject(error);
  }
}
