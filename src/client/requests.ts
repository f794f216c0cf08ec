/**
 * Requests in flight: ids, timeouts (optionally restarted by progress), abort signals,
 * progress tokens, and settling each from the server's response. Bounded by `maxPendingRequests`.
 */
import type { JsonRpcId, JsonRpcRequest } from '../jsonrpc/message.js';
import { isPlainObject } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/errors.js';
import { onAbort as linkAbort } from './abort.js';
import type { AbortSignalLike } from '../protocol/connection.js';
import { LazyAbort } from '../protocol/request/abort.js';
import { IdTable } from '../util/id-table.js';
import { Deadlines, type Expiring } from './deadlines.js';
import { McpError, McpTransportError } from './errors.js';
import type { Json, RequestOptions } from './options.js';
import { SENT, type ClientTransport, type OutboundInfo } from './transport.js';

interface Pending {
  method: string;
  resolve(result: Json): void;
  reject(error: Error): void;
  restart?: (() => void) | undefined;
  onProgress?: RequestOptions['onProgress'];
}

/** One request: what the client gives the table (data only: no closures per request). */
export interface Outgoing {
  method: string;
  params: Json;
  options: RequestOptions;
  timeoutMs: number;
  /** Its exchange is ended when it is abandoned (HTTP, in memory): `info` gets that stream's signal. */
  streamed: boolean;
  /** Declares the tasks extension (see Client#request). */
  tasks: boolean;
  transport: ClientTransport;
  /** An observer learns the request's JSON-RPC id. */
  onId: ((id: number) => void) | undefined;
}

/** What the client does around every request, given once: build the message and its transport facts, cancel. */
export interface Wire {
  /** The message, once the id and progress token are known. */
  message(out: Outgoing, id: number, progressToken: number | undefined): JsonRpcRequest;
  info(out: Outgoing, message: JsonRpcRequest, stream: LazyAbort | undefined): OutboundInfo;
  /** Tells the server the request is abandoned (`notifications/cancelled`). */
  cancel(out: Outgoing, id: number, reason: string): void;
}

export class RequestTable {
  /** By id, in slots (id-table.ts): a Map churned at 32 requests in flight promoted each one's objects. */
  readonly #pending = new IdTable<Pending>();
  readonly #progress = new Map<string | number, Pending>();
  #nextId = 1;
  readonly #deadlines = new Deadlines();

  constructor(
    private readonly max: number,
    private readonly safely: (run: () => void) => void,
    private readonly wire: Wire,
  ) {}

  /** Sends a request and settles with its result, or rejects (McpError, McpTransportError). */
  start(out: Outgoing): Promise<Json> {
    const { method, options } = out;
    const signal = options.signal;
    if (signal?.aborted === true) return Promise.reject(new McpTransportError('aborted', `${method} was aborted before it was sent`, { cause: signal.reason }));
    if (this.#pending.size >= this.max) return Promise.reject(new McpTransportError('limit', `${this.max} requests are already in flight (maxPendingRequests)`));
    const id = this.#nextId++;
    const progressToken = options.onProgress === undefined ? undefined : id;
    // Aborted to end this request's exchange when it is abandoned (timed out, aborted): on 2026-07-28 that
    // is how it is cancelled; on a legacy session notifications/cancelled is, and the exchange would stay open.
    // A flag, not an AbortController: the transport makes it an AbortSignal only if it needs one.
    const stream = out.streamed ? new LazyAbort() : undefined;
    const message = this.wire.message(out, id, progressToken);
    const info = this.wire.info(out, message, stream);
    let resolve!: (result: Json) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<Json>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const entry = new InFlight(this.#pending, this.#progress, this.#deadlines, this.wire, id, out, progressToken, stream, resolve, reject);
    this.#pending.set(id, entry);
    if (progressToken !== undefined) this.#progress.set(progressToken, entry);
    // One listener on a signal shared by many calls, however many there are.
    if (signal !== undefined) entry.unlink = linkAbort(signal, () => entry.aborted(signal));
    let sent: Promise<void>;
    try {
      sent = out.transport.send(message, info);
    } catch (error) {
      // A synchronous send that could not encode the message (a BigInt, a cycle): nothing went out, so
      // nothing stays in flight (the slot, the deadline, a promise close() would reject unwatched).
      entry.reject(error instanceof Error ? error : new McpTransportError('unreachable', String(error)));
      return promise;
    }
    // A send that needs no waiting answers with the one settled SENT: nothing to catch, no promise and job per call.
    if (sent !== SENT) {
      sent.catch((error: unknown) => {
        if (this.#pending.get(id) === entry) entry.reject(error instanceof Error ? error : new McpTransportError('unreachable', String(error)));
      });
    }
    return promise;
  }

  /** Settles the request a response answers; false when no request has that id. */
  /** `transportFailure`: the transport's own answer for a request it could not complete (its kind: the link broke, or the server's answer was malformed). */
  settle(id: JsonRpcId, response: { result: unknown } | { error: { code: number; message: string; data?: unknown } }, transportFailure: false | 'unreachable' | 'protocol'): boolean {
    const pending = this.#pending.get(id);
    if (pending === undefined) return false;
    if ('error' in response) {
      const { code, message: text, data } = response.error;
      if (transportFailure !== false) pending.reject(new McpTransportError(transportFailure, text));
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
    for (const pending of this.#pending.values()) pending.reject(error);
  }
}

/** One request in flight: its settling, timeout, cancellation and cleanup, without a closure each. */
class InFlight implements Pending, Expiring {
  readonly method: string;
  readonly onProgress: RequestOptions['onProgress'];
  restart: (() => void) | undefined;
  unlink: (() => void) | undefined;
  deadline: number | undefined;

  constructor(
    private readonly pending: IdTable<Pending>,
    private readonly progressTable: Map<string | number, Pending>,
    private readonly deadlines: Deadlines,
    private readonly wire: Wire,
    private readonly id: number,
    private readonly out: Outgoing,
    private readonly progressToken: number | undefined,
    private readonly stream: LazyAbort | undefined,
    private readonly settleResolve: (result: Json) => void,
    private readonly settleReject: (error: Error) => void,
  ) {
    this.method = out.method;
    this.onProgress = out.options.onProgress;
    this.#arm();
    if (out.options.resetTimeoutOnProgress === true) this.restart = () => this.#arm();
  }

  resolve(result: Json): void {
    this.#cleanup();
    this.settleResolve(result);
  }

  reject(error: Error): void {
    this.#cleanup();
    this.settleReject(error);
  }

  aborted(signal: AbortSignalLike): void {
    this.#cleanup();
    const reason: unknown = signal.reason;
    this.#cancel(reason instanceof Error ? String(reason) : typeof reason === 'string' ? reason : 'aborted');
    this.settleReject(new McpTransportError('aborted', `${this.method} was aborted`, { cause: signal.reason }));
  }

  #arm(): void {
    if (this.out.timeoutMs > 0) this.deadlines.arm(this, this.out.timeoutMs);
  }

  expire(): void {
    const timeoutMs = this.out.timeoutMs;
    this.#cleanup();
    this.#cancel(`timed out after ${timeoutMs} ms`);
    this.settleReject(new McpTransportError('timeout', `${this.method} did not finish within ${timeoutMs} ms`));
  }

  #cancel(reason: string): void {
    this.stream?.abort(new Error('the request was abandoned'));
    this.wire.cancel(this.out, this.id, reason);
  }

  #cleanup(): void {
    this.deadlines.disarm(this);
    this.pending.delete(this.id);
    if (this.progressToken !== undefined) this.progressTable.delete(this.progressToken);
    this.unlink?.();
  }
}
