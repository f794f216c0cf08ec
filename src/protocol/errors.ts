import { ErrorCode, JsonRpcProtocolError } from '../jsonrpc/errors.js';
import type { ClientCapabilities } from './types.js';
import { McpErrorCode } from './codes.js';

/** The request needs a client capability the client did not declare: -32021 with `requiredCapabilities`. */
export class MissingClientCapabilityError extends JsonRpcProtocolError {
  constructor(requiredCapabilities: ClientCapabilities, what: string) {
    super(McpErrorCode.MissingRequiredClientCapability, `This request needs the client capability "${what}", which the client did not declare`, {
      requiredCapabilities,
    });
  }
}

export function invalidParams(message: string, data?: unknown): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InvalidParams, message, data);
}

export function methodNotFound(method: string): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}
