import { ErrorCode, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import type { ClientCapabilities } from '../../wire-types/index.js';
import { McpErrorCode } from './codes.js';
import type { ErrorCodeName } from '../../errors/codes.js';

/** The request needs a client capability the client did not declare: -32021 with `requiredCapabilities`. */
export class MissingClientCapabilityError extends JsonRpcProtocolError {
  readonly errorCode: ErrorCodeName = 'missing_client_capability';
  constructor(requiredCapabilities: ClientCapabilities, what: string) {
    super(McpErrorCode.MissingRequiredClientCapability, `This request needs the client capability "${what}", which the client did not declare`, {
      requiredCapabilities,
    });
  }
}

export function invalidParams(message: string, data?: unknown): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InvalidParams, message, data);
}

/** The client cancelled the request: it gets no response. */
export class RequestCancelledError extends Error {
  override readonly name = 'RequestCancelledError';
  constructor(reason: unknown) {
    super(typeof reason === 'string' ? `Request cancelled: ${reason}` : 'Request cancelled');
  }
}

export class RequestTimeoutError extends JsonRpcProtocolError {
  readonly errorCode: ErrorCodeName = 'request_timeout';
  constructor(method: string, timeoutMs: number) {
    super(ErrorCode.InternalError, `Request timed out: ${method} did not finish within ${timeoutMs} ms`, { timeoutMs });
  }
}

export class ConnectionClosedError extends JsonRpcProtocolError {
  readonly errorCode: ErrorCodeName = 'connection_closed';
  constructor(reason: string) {
    super(ErrorCode.InternalError, reason);
  }
}
