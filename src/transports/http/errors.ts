/** HTTP error answers: every one carries a JSON-RPC error object a person can act on. */
import { isStoreUnavailableError, storeUnavailableProtocolError, type StoreUnavailableError } from '../../stores/errors.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { McpErrorCode } from '../../errors/codes.js';
import type { JsonRpcErrorResponse, JsonRpcId } from '../../jsonrpc/message.js';
import type { HttpResponse } from './types.js';

/** MCP's code for an unsupported protocol revision (2026-07-28 schema). */
export const UnsupportedProtocolVersion = McpErrorCode.UnsupportedProtocolVersion;

export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

export function httpError(
  status: number,
  code: number,
  message: string,
  options: { id?: JsonRpcId; data?: unknown; headers?: Record<string, string> } = {},
): HttpResponse {
  const body: JsonRpcErrorResponse = { jsonrpc: '2.0', id: options.id ?? null, error: { code, message } };
  if (options.data !== undefined) body.error.data = options.data;
  return {
    status,
    headers: options.headers === undefined ? { ...JSON_HEADERS } : { ...JSON_HEADERS, ...options.headers },
    body: JSON.stringify(body),
  };
}

export const badRequest = (message: string, id?: JsonRpcId): HttpResponse =>
  httpError(400, ErrorCode.InvalidRequest, message, id === undefined ? {} : { id });

export const parseError = (detail: string): HttpResponse =>
  httpError(400, ErrorCode.ParseError, `Parse error: ${detail}`);

export function methodNotAllowed(method: string, allow: string): HttpResponse {
  return httpError(405, ErrorCode.InvalidRequest, `Method not allowed: ${method} is not served here (allowed: ${allow})`, {
    headers: { allow },
  });
}

export const sessionNotFound = (): HttpResponse =>
  httpError(404, ErrorCode.InvalidRequest, 'Session not found: it expired or was ended; start a new session with initialize');

export const missingSession = (id?: JsonRpcId): HttpResponse =>
  httpError(400, ErrorCode.InvalidRequest, 'Bad request: missing Mcp-Session-Id header; send initialize first to open a session', id === undefined ? {} : { id });

/** A Last-Event-ID that cannot be resumed: never a partial replay. */
export const cannotResume = (lastEventId: string): HttpResponse =>
  badRequest(
    `Bad request: cannot resume after Last-Event-ID "${lastEventId}": it names no event of this session's streams, ` +
      'or events after it were dropped (the replay log is bounded); messages may have been lost, so re-issue the request ' +
      'or reconnect without Last-Event-ID',
  );

export const shuttingDown = (): HttpResponse =>
  httpError(503, ErrorCode.InternalError, 'Service unavailable: the server is shutting down', { headers: { 'retry-after': '1' } });

/** A shared store (Redis) did not answer: the request needs it, so the client retries later. */
export function storeUnavailable(error: StoreUnavailableError, id?: JsonRpcId): HttpResponse {
  const rpc = storeUnavailableProtocolError(error);
  return httpError(503, rpc.code, rpc.message, { data: rpc.data, headers: { 'retry-after': retryAfterHeader(error.retryAfterSeconds) }, ...(id === undefined ? {} : { id }) });
}

/** The Retry-After of a JSON-RPC error a handler answered because a shared store is down (see storeUnavailableProtocolError), else undefined. */
export function retryAfterOf(error: { code: number; data?: unknown }): string | undefined {
  if (error.code !== ErrorCode.InternalError || typeof error.data !== 'object' || error.data === null) return undefined;
  const seconds = (error.data as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? retryAfterHeader(seconds) : undefined;
}

/** Whole seconds, at least 1 (RFC 9110 delay-seconds). */
const retryAfterHeader = (seconds: number): string => String(Math.max(1, Math.ceil(seconds)));

/** What a request whose handling threw gets: 503 when a shared store is down (the client may retry), else a 500 without details. */
export function failedResponse(error: unknown): HttpResponse {
  if (isStoreUnavailableError(error)) return storeUnavailable(error);
  return httpError(500, ErrorCode.InternalError, 'Internal error');
}
