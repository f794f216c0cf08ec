import type { JsonRpcMessage, JsonRpcResponse } from '../jsonrpc/message.js';
import type { RecordChangeListener, SessionRecord } from './wire/session-record.js';

/** What an HTTP transport (or any transport) learned about the caller. */
export interface AuthInfo {
  /** Who the caller is (a JWT `sub`): what sessions, tasks and `requestState` are bound to. */
  subject?: string;
  token?: string;
  clientId?: string;
  scopes?: string[];
  expiresAt?: number;
  extra?: Record<string, unknown>;
  /** How the caller's scopes satisfy what an operation needs (set by the HTTP `auth` option). */
  access?: ScopeAccess;
}

/** Scope checks for one authenticated caller, scope hierarchies included. */
export interface ScopeAccess {
  /** True when the granted scopes cover every one of `required`. */
  permits(required: readonly string[]): boolean;
  /** List only what `permits` allows. */
  readonly filterLists: boolean;
}

/** Headers of the HTTP request that carried a message (lower-cased names). */
export interface RequestInfo {
  headers: Readonly<Record<string, string | undefined>>;
  /**
   * The client's address as a quota key (IPv6 grouped by /64), when the transport
   * knows it: what unauthenticated clients' tasks are charged to.
   */
  remoteAddress?: string | undefined;
  /** The client's IP address as given (with `trustProxy`, the forwarded client's), when known. */
  clientAddress?: string | undefined;
  /** The client's port, when known. */
  clientPort?: number | undefined;
  /** The HTTP version the message came over (`1.1`, `2`), when known. */
  httpVersion?: string | undefined;
}

/** Writes one message to the client; may return a promise for backpressure. */
export type MessageSink = (message: JsonRpcMessage) => void | Promise<void>;

/**
 * What the protocol handler needs of a cancellation signal. An AbortSignal
 * fits; a transport may pass something lighter (an AbortController per HTTP
 * request is a measurable cost).
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Per-message information a transport hands to the protocol handler. */
export interface MessageExtra {
  /**
   * Where messages *related to this inbound message* go (progress, log messages,
   * server→client requests made while handling it). Defaults to the connection's sink.
   */
  send?: MessageSink | undefined;
  /** Aborted when the transport loses the request (HTTP client gone, shutdown). */
  signal?: AbortSignalLike | undefined;
  authInfo?: AuthInfo | undefined;
  requestInfo?: RequestInfo | undefined;
  /**
   * The protocol revision the transport knows for this message (the HTTP
   * `MCP-Protocol-Version` header), used when the connection negotiated none.
   */
  protocolVersion?: string | undefined;
  /**
   * Ends the current response stream early while the request keeps running
   * (SSE polling, SEP-1699); the client resumes with Last-Event-ID. Only
   * transports with resumable streams provide it.
   */
  closeStream?: ((options?: { retryMs?: number }) => void) | undefined;
}

export type HandleResult = JsonRpcResponse | JsonRpcResponse[] | undefined;

/**
 * One client connection as the protocol sees it: a stdio process, a legacy HTTP
 * session, or the shared stateless endpoint. Transports drive it; it never
 * touches bytes.
 */
export interface McpConnection {
  /**
   * Handles one message or batch: the answer itself when it is ready at once
   * (a synchronous handler: a transport writes it in the same tick), else a
   * promise (or any thenable). `await` it when the difference does not matter.
   */
  handleMessage(payload: unknown, extra?: MessageExtra): HandleResult | PromiseLike<HandleResult>;
  /** Aborts every in-flight request and rejects pending server→client requests. */
  close(reason?: string): void;
  /**
   * What the session negotiated, as plain JSON (see `SessionRecord`): undefined
   * before `initialize`, on a stateless connection, and once closed.
   */
  readonly record?: SessionRecord | undefined;
}

export interface ConnectionOptions {
  /** Messages not tied to a request (list_changed, resources/updated, standalone logs). */
  send?: MessageSink;
  /** The transport's session id, when it has one (exposed to handlers). */
  sessionId?: string;
  /**
   * A connection shared by unrelated requests (the stateless HTTP endpoint):
   * `initialize` is answered but negotiates nothing that later requests inherit.
   */
  stateless?: boolean;
  /** The transport's name (`stdio`, `http`), reported to observability subscribers. */
  transport?: string;
  /**
   * Restores a session from the record another connection (on this process or
   * another) produced: same revision, client capabilities, log level and
   * subscriptions, as if `initialize` had just run. Not with `stateless`.
   */
  record?: SessionRecord;
  /**
   * Called after every change of the session's record (`initialize`,
   * `logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`) and
   * awaited before that request is answered, so a shared store holds the
   * change before the client can send its next request anywhere. Changes are
   * reported one at a time, in order. If it throws (or rejects) the change is
   * undone and the request fails with -32603.
   */
  onRecordChange?: RecordChangeListener;
}

/** Anything that can open protocol connections: McpServer implements it. */
export interface ConnectionFactory {
  openConnection(options?: ConnectionOptions): McpConnection;
  /** The revisions the server accepts (`ProtocolOptions.protocolVersions`); the HTTP engine checks `MCP-Protocol-Version` against them. */
  readonly protocolVersions?: readonly string[];
  /** Most messages in one batch (`ProtocolOptions.maxBatchSize`); the HTTP engine refuses a larger one with 400 before anything runs. */
  readonly maxBatchSize?: number;
  /**
   * Opens a connection that continues the session `record` describes (as
   * `openConnection({ ...options, record })`); the record is checked first
   * (a TypeError names what is wrong).
   */
  restoreConnection?(record: SessionRecord, options?: Omit<ConnectionOptions, 'record' | 'stateless'>): McpConnection;
  /**
   * The scopes a request needs (the tool, prompt or resource it names was
   * registered with `scopes`), so an HTTP transport can answer 403 with a
   * step-up challenge before it commits to a status.
   */
  scopesFor?(method: string, params: unknown): readonly string[] | undefined;
  /** True when MRTR `requestState` is signed with configured (shareable) keys: an HTTP cluster warns otherwise. */
  hasSharedStateKey?(): boolean;
  /** Where a transport reports failures no request can be told about (a store or bus failure). */
  readonly logger?: { error?(message: string, ...args: unknown[]): void };
}
