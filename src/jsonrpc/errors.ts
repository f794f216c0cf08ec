import { withPlainErrors } from './plain-errors.js';
import type { JsonRpcErrorResponse, JsonRpcId } from './message.js';

/** The five reserved JSON-RPC 2.0 error codes. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/**
 * A deliberate protocol error: its code, message and data reach the wire as-is.
 * Anything else thrown in a handler becomes -32603 "Internal error".
 */
export class JsonRpcProtocolError extends Error {
  override readonly name = 'JsonRpcProtocolError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** Cross-realm safe check (a second copy of mcpkit has its own class). */
export function isJsonRpcProtocolError(error: unknown): error is JsonRpcProtocolError {
  return (
    error instanceof JsonRpcProtocolError ||
    (typeof error === 'object' &&
      error !== null &&
      (error as { name?: unknown }).name === 'JsonRpcProtocolError' &&
      typeof (error as { code?: unknown }).code === 'number' &&
      typeof (error as { message?: unknown }).message === 'string')
  );
}

/**
 * The one function that turns an error into a JSON-RPC error response.
 * It never reads `.stack`: only a JsonRpcProtocolError's own fields reach the wire.
 */
export function errorResponseFrom(id: JsonRpcId, error: unknown): JsonRpcErrorResponse {
  if (isJsonRpcProtocolError(error)) {
    const body: JsonRpcErrorResponse['error'] = { code: error.code, message: error.message };
    if (error.data !== undefined) body.data = withPlainErrors(error.data);
    return { jsonrpc: '2.0', id, error: body };
  }
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'Internal error' } };
}

export function parseErrorResponse(detail?: string): JsonRpcErrorResponse {
  return errorResponseFrom(
    null,
    new JsonRpcProtocolError(ErrorCode.ParseError, detail ? `Parse error: ${detail}` : 'Parse error'),
  );
}
