/**
 * The error catalogue: every error a client or an operator can meet, by a stable string code,
 * with its JSON-RPC code and the HTTP status a 2026-07-28 request answered with it gets.
 * docs/errors.md shows this table; test/errors/catalogue.test.ts fails when the two disagree.
 */
import { ErrorCode } from '../jsonrpc/errors.js';

/** MCP's own error codes, as the specification's schema and prose define them. */
export const McpErrorCode = {
  /** Resource not found in legacy revisions (2026-07-28 uses -32602). */
  ResourceNotFound: -32002,
  /** A routing header disagrees with the body (2026-07-28). */
  HeaderMismatch: -32020,
  /** The request needs a client capability the client did not declare (2026-07-28). */
  MissingRequiredClientCapability: -32021,
  /** The requested protocol version is not supported (2026-07-28). */
  UnsupportedProtocolVersion: -32022,
  /** The server needs the user to complete a URL-mode elicitation first (2025-11-25). */
  UrlElicitationRequired: -32042,
} as const;

export interface ErrorEntry {
  /** The JSON-RPC error code; `null` when the error never is one (a tool result, a log line). */
  readonly rpc: number | null;
  /** The code on 2026-07-28 where it differs from legacy revisions. */
  readonly rpcModern?: number;
  /** The exported class that carries this code as `errorCode`, if one does. */
  readonly className?: string;
  /** The HTTP status where it is not the one its JSON-RPC code maps to. */
  readonly http?: number;
  /** When it happens, in a sentence. */
  readonly when: string;
}

export const errorCatalogue = {
  parse_error: { rpc: ErrorCode.ParseError, when: 'The body or stdio line is not JSON, or a stdio line is longer than maxLineLength (id null).' },
  invalid_request: { rpc: ErrorCode.InvalidRequest, when: 'Not a JSON-RPC 2.0 envelope, an empty batch, a batch on 2026-07-28, or a refused session or request at the HTTP layer.' },
  method_not_found: { rpc: ErrorCode.MethodNotFound, when: 'An unknown method, or one the negotiated revision does not have.' },
  invalid_params: { rpc: ErrorCode.InvalidParams, when: 'Params of the wrong shape, an invalid cursor, a disabled tool.' },
  internal_error: { rpc: ErrorCode.InternalError, when: 'A resource or prompt handler threw, or a result could not be serialised; the message is fixed ("Internal error") and the error is logged.' },
  tool_not_found: { rpc: ErrorCode.InvalidParams, className: 'McpToolNotFoundError', when: 'tools/call names no registered tool.' },
  prompt_not_found: { rpc: ErrorCode.InvalidParams, className: 'McpPromptNotFoundError', when: 'prompts/get names no registered prompt.' },
  prompt_argument_missing: { rpc: ErrorCode.InvalidParams, className: 'McpPromptArgumentError', when: 'prompts/get lacks a required argument.' },
  resource_not_found: { rpc: McpErrorCode.ResourceNotFound, rpcModern: ErrorCode.InvalidParams, className: 'McpResourceNotFoundError', when: 'resources/read names no resource and matches no template (data.uri).' },
  uri_too_long: { rpc: McpErrorCode.ResourceNotFound, rpcModern: ErrorCode.InvalidParams, className: 'McpUriTooLongError', when: 'A resource URI longer than maxUriLength, refused before matching.' },
  tool_failed: { rpc: null, className: 'ToolError', when: 'A tool threw: the result has isError: true and the message, so the model can correct itself.' },
  tool_input_invalid: { rpc: null, className: 'ToolInputError', when: "The arguments failed the tool's input schema: an isError result naming the fields." },
  result_invalid: { rpc: ErrorCode.InternalError, when: 'A resource or prompt handler returned what MCP does not allow (a reader returning a number or undefined, a message without a content block): the message says which kind, the log names it and what it returned. A tool\'s invalid result is an isError result instead.' },
  tool_output_invalid: { rpc: ErrorCode.InternalError, className: 'ToolOutputError', when: "A tool's structuredContent broke its own output schema (a server bug)." },
  header_mismatch: { rpc: McpErrorCode.HeaderMismatch, when: 'A 2026-07-28 routing header disagrees with the body.' },
  missing_client_capability: { rpc: McpErrorCode.MissingRequiredClientCapability, className: 'MissingClientCapabilityError', when: 'The request needs a client capability the client did not declare (data.requiredCapabilities).' },
  unsupported_protocol_version: { rpc: McpErrorCode.UnsupportedProtocolVersion, when: 'A 2026-07-28 request names a revision the server does not serve (data.supported, data.requested).' },
  url_elicitation_required: { rpc: McpErrorCode.UrlElicitationRequired, when: 'The user must complete a URL-mode elicitation first (2025-11-25).' },
  request_timeout: { rpc: ErrorCode.InternalError, className: 'RequestTimeoutError', when: 'A request ran longer than requestTimeoutMs (data.timeoutMs); a tool past its timeoutMs answers an isError result instead.' },
  connection_closed: { rpc: ErrorCode.InternalError, className: 'ConnectionClosedError', when: 'The connection closed (server stopped, session ended) while the request ran.' },
  task_input_timeout: { rpc: ErrorCode.InternalError, className: 'TaskInputTimeoutError', when: 'A task waited for input longer than taskInputTimeoutMs; the task fails.' },
  store_unavailable: { rpc: ErrorCode.InternalError, http: 503, className: 'StoreUnavailableError', when: 'A shared store (Redis) did not answer in time: the request that needed it gets 503 with Retry-After (data.retryAfterSeconds), in either era.' },
  instance_lost: { rpc: ErrorCode.InternalError, when: 'Several instances: the instance running a request crashed or stopped before answering; a client resuming its stream elsewhere gets this error for it (data.instance).' },
  output_closed: { rpc: null, className: 'OutputClosedError', when: "The stdio client closed its end or stopped reading: logged as a transport failure, never answered as -32700." },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCodeName = keyof typeof errorCatalogue;

/**
 * The HTTP status of a 2026-07-28 request answered with this error (a JSON-RPC code or a
 * catalogue code): an unknown method is 404; a malformed request, bad params, a header or
 * capability mismatch and an unsupported revision are 400; a shared store that is down (by its
 * catalogue code) is 503; anything else is an answer (200)
 * carrying the JSON-RPC error.
 */
export function httpStatusFor(code: number | ErrorCodeName): number {
  if (typeof code === 'string') {
    const entry: ErrorEntry = errorCatalogue[code];
    if (entry.http !== undefined) return entry.http;
    return httpStatusFor(entry.rpcModern ?? entry.rpc ?? ErrorCode.InternalError);
  }
  switch (code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.InvalidParams:
    case McpErrorCode.HeaderMismatch:
    case McpErrorCode.MissingRequiredClientCapability:
    case McpErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      return 200;
  }
}
