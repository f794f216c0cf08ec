import { ErrorCode, isJsonRpcProtocolError, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import {
  DuplicateRegistrationError,
  McpPromptArgumentError,
  McpPromptNotFoundError,
  McpResourceNotFoundError,
  McpToolNotFoundError,
  ToolOutputError,
} from '../../errors/classes.js';
import { isStoreUnavailableError, storeUnavailableProtocolError } from '../../stores/errors.js';
import { LATEST_LEGACY_VERSION, revision, type ProtocolVersion } from '../wire/versions.js';

/**
 * Maps what a method handler threw to the error the wire carries. Typed
 * registry errors become -32602 (or the revision's resource-not-found code);
 * anything unexpected becomes -32603 "Internal error" via errorResponseFrom.
 */
export function mapError(error: unknown, logger: { error?(message: string, ...args: unknown[]): void } | undefined, version: ProtocolVersion | undefined, method: string): unknown {
  if (isJsonRpcProtocolError(error)) return error;
  // Not a server bug: the client is told to retry (HTTP 503), and the store's client reports the outage.
  if (isStoreUnavailableError(error)) return storeUnavailableProtocolError(error);
  if (error instanceof McpResourceNotFoundError) {
    const code = revision(version ?? LATEST_LEGACY_VERSION).resourceNotFoundCode;
    return new JsonRpcProtocolError(code, error.message, { uri: error.uri });
  }
  if (error instanceof McpToolNotFoundError || error instanceof McpPromptNotFoundError || error instanceof McpPromptArgumentError) {
    return new JsonRpcProtocolError(ErrorCode.InvalidParams, `Invalid params: ${error.message}`);
  }
  if (error instanceof ToolOutputError) {
    logger?.error?.(`mcpkit: ${error.message}`);
    return new JsonRpcProtocolError(ErrorCode.InternalError, error.message);
  }
  if (!(error instanceof DuplicateRegistrationError)) {
    logger?.error?.(`mcpkit: ${method} failed`, error);
  }
  return error;
}
