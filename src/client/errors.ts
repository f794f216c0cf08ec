/**
 * The client's two error types. A server's JSON-RPC error answer is an
 * `McpError` (code and data as the server sent them; `errorCode` names the
 * catalogue entry when the code has one). Anything below JSON-RPC — the
 * process died, HTTP 401, a body that is not JSON — is a `McpTransportError`.
 */
import { JsonRpcProtocolError } from '../jsonrpc/errors.js';
import { errorCatalogue, type ErrorCodeName } from '../errors/codes.js';

const byRpcCode = new Map<number, ErrorCodeName>();
for (const [name, entry] of Object.entries(errorCatalogue) as [ErrorCodeName, { rpc: number | null; className?: string }][]) {
  // The catalogue's generic entries (no class) name a code; the first one wins.
  if (entry.rpc !== null && entry.className === undefined && !byRpcCode.has(entry.rpc)) byRpcCode.set(entry.rpc, name);
}

/** A JSON-RPC error the server answered with (or one the client raised about the server's answer). */
export class McpError extends JsonRpcProtocolError {
  /** The method of the request that failed. */
  readonly method: string;
  /** The catalogue code of `code`, when the catalogue has a generic entry for it. */
  readonly errorCode: ErrorCodeName | undefined;
  constructor(method: string, code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.method = method;
    this.errorCode = byRpcCode.get(code);
  }
}

/** Why a transport failed: what a caller may branch on. */
export type TransportFailure =
  /** The server could not be reached or the connection broke. */
  | 'unreachable'
  /** HTTP 401/403: see `status` and `wwwAuthenticate`. */
  | 'unauthorized'
  /** An HTTP status the protocol does not explain (4xx/5xx without a JSON-RPC answer). */
  | 'http'
  /** The server sent something that is not MCP (not JSON, oversized, the wrong content type). */
  | 'protocol'
  /** The legacy session is gone (HTTP 404 with a session id). */
  | 'session_expired'
  /** The transport or client was closed. */
  | 'closed'
  /** The request ran past its timeout. */
  | 'timeout'
  /** The caller aborted the request. */
  | 'aborted'
  /** A client bound was reached (`maxPendingRequests`). */
  | 'limit';

export class McpTransportError extends Error {
  override readonly name = 'McpTransportError';
  readonly kind: TransportFailure;
  /** The HTTP status, when an HTTP answer caused this. */
  readonly status: number | undefined;
  /** The server's `WWW-Authenticate` challenge on 401/403. */
  readonly wwwAuthenticate: string | undefined;
  constructor(kind: TransportFailure, message: string, options: { status?: number; wwwAuthenticate?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.wwwAuthenticate = options.wwwAuthenticate;
  }
}

export function isMcpError(error: unknown): error is McpError {
  return error instanceof McpError;
}

/** `callTool(…, { throwOnError: true })` got an `isError` result: the result is kept. */
export class ToolResultError extends Error {
  override readonly name = 'ToolResultError';
  constructor(
    readonly toolName: string,
    readonly result: { content?: unknown; structuredContent?: unknown; isError?: boolean },
  ) {
    const first = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]).find((c) => c?.type === 'text') : undefined;
    super(`Tool "${toolName}" failed${typeof first?.text === 'string' ? `: ${first.text.slice(0, 500)}` : ''}`);
  }
}
