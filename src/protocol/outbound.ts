import { JsonRpcProtocolError } from '../jsonrpc/errors.js';
import type { JsonRpcId, JsonRpcResponse } from '../jsonrpc/message.js';
import type { MessageSink } from './connection.js';
import { plausibleAnswer } from './mrtr.js';

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

/**
 * Server→client requests of one connection: id allocation, the pending map,
 * timeouts and cancellation with the parent request.
 */
export class OutboundRequests {
  #nextId = 0;
  readonly #pending = new Map<JsonRpcId, Pending>();

  get size(): number {
    return this.#pending.size;
  }

  request(method: string, params: Record<string, unknown>, send: MessageSink, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown> {
    const id = `mcpkit-${++this.#nextId}`;
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<unknown>((resolve, reject) => {
      const cancel = (reason: string): void => {
        void Promise.resolve(send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } })).catch(() => undefined);
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
      (timer as { unref?: () => void }).unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        method,
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.#pending.delete(id);
        },
      });
      Promise.resolve(send({ jsonrpc: '2.0', id, method, params })).catch((error: unknown) => {
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

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new JsonRpcProtocolError(-32603, 'Request cancelled');
}
