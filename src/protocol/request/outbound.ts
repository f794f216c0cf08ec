import { ErrorCode, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../../jsonrpc/message.js';
import type { MessageSink } from '../connection.js';
import { plausibleAnswer } from '../wire/answers.js';
import { unrefTimer } from '../../util/timers.js';
import { utf8Length } from '../../util/bytes.js';

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

export class ClientRequestError extends Error {
  override readonly name = 'ClientRequestError';
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`The client answered ${method} with error ${code}: ${message}`);
  }
}

/** The client answered with a result that is not the shape its method returns. */
export class MalformedClientAnswerError extends Error {
  override readonly name = 'MalformedClientAnswerError';
  constructor(readonly method: string) {
    super(`The client answered ${method} with a malformed result`);
  }
}

export class ClientRequestTimeoutError extends Error {
  override readonly name = 'ClientRequestTimeoutError';
  constructor(readonly method: string, readonly timeoutMs: number) {
    super(`The client did not answer ${method} within ${timeoutMs} ms`);
  }
}

/** Defaults of the pending server→client request limits (see docs/limits.md). */
export const DEFAULT_MAX_PENDING_CLIENT_REQUESTS = 64;
export const DEFAULT_MAX_PENDING_CLIENT_REQUEST_BYTES = 1024 * 1024;

export interface OutboundLimits {
  /** Most server→client requests awaiting an answer on one connection (a legacy session or stdio). */
  maxPending?: number | undefined;
  /** Most bytes (JSON params) those requests may hold. */
  maxPendingBytes?: number | undefined;
}

function limitError(message: string, limit: string): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InternalError, message, { limit });
}

/**
 * Server→client requests of one connection: id allocation, the pending map,
 * timeouts and cancellation with the parent request, bounded in count and bytes.
 * (Only sessions make them: a stateless request has no client capabilities to ask with.)
 */
export class OutboundRequests {
  #nextId = 0;
  #bytes = 0;
  readonly #pending = new Map<JsonRpcId, Pending>();
  readonly #maxPending: number;
  readonly #maxPendingBytes: number;

  constructor(limits: OutboundLimits = {}) {
    this.#maxPending = limits.maxPending ?? DEFAULT_MAX_PENDING_CLIENT_REQUESTS;
    this.#maxPendingBytes = limits.maxPendingBytes ?? DEFAULT_MAX_PENDING_CLIENT_REQUEST_BYTES;
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Bytes (JSON params) of the requests awaiting an answer. */
  get bytes(): number {
    return this.#bytes;
  }

  /** What a new request would cost; throws when it does not fit (nothing is sent). */
  #admit(method: string, params: Record<string, unknown>): number {
    if (this.#pending.size >= this.#maxPending) {
      throw limitError(`Too many requests to the client: this session already has ${this.#pending.size} awaiting an answer (the limit is ${this.#maxPending}); ${method} was not sent`, 'maxPendingClientRequests');
    }
    const bytes = utf8Length(JSON.stringify(params));
    if (this.#bytes + bytes > this.#maxPendingBytes) {
      throw limitError(`Too many requests to the client: this session's requests awaiting an answer would hold more than ${this.#maxPendingBytes} bytes; ${method} (${bytes} bytes) was not sent`, 'maxPendingClientRequestBytes');
    }
    return bytes;
  }

  request(method: string, params: Record<string, unknown>, send: MessageSink, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown> {
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    let bytes: number;
    try {
      bytes = this.#admit(method, params);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const id = `mcpkit-${++this.#nextId}`;
    return new Promise<unknown>((resolve, reject) => {
      const cancel = (reason: string): void => {
        // Best effort: the client may be gone; the pending request is settled either way.
        sendSafely(send, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }).catch(() => undefined);
      };
      const onAbort = (): void => {
        this.#pending.get(id)?.cleanup();
        reject(abortError(signal));
        cancel('The originating request was cancelled');
      };
      const timer = setTimeout(() => {
        this.#pending.get(id)?.cleanup();
        reject(new ClientRequestTimeoutError(method, timeoutMs));
        // The client may still be working on it: tell it to stop (the lifecycle's timeout rule).
        cancel(`Timed out after ${timeoutMs} ms`);
      }, timeoutMs);
      unrefTimer(timer);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#bytes += bytes;
      this.#pending.set(id, {
        method,
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          if (this.#pending.delete(id)) this.#bytes -= bytes;
        },
      });
      sendSafely(send, { jsonrpc: '2.0', id, method, params }).catch((error: unknown) => {
        this.#pending.get(id)?.cleanup();
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /** Routes a client's response; false when no request of ours has that id. */
  settle(response: JsonRpcResponse): boolean {
    const pending = this.#pending.get(response.id);
    if (!pending) return false;
    pending.cleanup();
    if ('error' in response) {
      pending.reject(new ClientRequestError(pending.method, response.error.code, response.error.message, response.error.data));
    } else if (!plausibleAnswer(pending.method, response.result)) {
      pending.reject(new MalformedClientAnswerError(pending.method));
    } else {
      pending.resolve(response.result);
    }
    return true;
  }

  rejectAll(reason: string): void {
    for (const pending of [...this.#pending.values()]) {
      pending.cleanup();
      pending.reject(new Error(reason));
    }
  }
}

/** A sink may throw synchronously (e.g. params that cannot be serialised): that too becomes a rejection. */
function sendSafely(send: MessageSink, message: JsonRpcMessage): Promise<void> {
  try {
    return Promise.resolve(send(message));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new JsonRpcProtocolError(-32603, 'Request cancelled');
}
