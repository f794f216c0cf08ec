import type { ErrorCodeName } from '../errors/codes.js';
import { ErrorCode, JsonRpcProtocolError } from '../jsonrpc/errors.js';

/**
 * A shared store (e.g. Redis) could not be reached in time. Callers answer
 * "try again later" (HTTP 503 with `Retry-After`) rather than hang or crash.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly errorCode: ErrorCodeName = 'store_unavailable';
  constructor(
    message: string,
    /** When a retry may succeed, in seconds (the HTTP `Retry-After`). */
    readonly retryAfterSeconds = 5,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isStoreUnavailableError(error: unknown): error is StoreUnavailableError {
  return error instanceof StoreUnavailableError || (error instanceof Error && error.name === 'StoreUnavailableError' && typeof (error as { retryAfterSeconds?: unknown }).retryAfterSeconds === 'number');
}

/**
 * What a request that needed the store answers: -32603 saying what is down and
 * when to retry, with `data.retryAfterSeconds`, which the HTTP engine turns
 * into 503 with Retry-After.
 */
export function storeUnavailableProtocolError(error: StoreUnavailableError): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InternalError, `Service unavailable: ${error.message}`, { retryAfterSeconds: error.retryAfterSeconds });
}
