import type { ClientView } from '../extensions.js';
import type { JsonRpcId } from '../../jsonrpc/message.js';
import { accessTokenOf } from './access-token.js';
import type { AbortSignalLike, AuthInfo, MessageSink, RequestInfo } from '../connection.js';
import type { LazyAbort } from './abort.js';
import type { OutboundRequests } from './outbound.js';
import { MissingClientCapabilityError } from '../wire/errors.js';
import { ErrorCode, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import { withPlainErrors } from '../../jsonrpc/plain-errors.js';
import { shouldLog } from '../wire/logging.js';
import { traceClientRequest, tracingClientRequests } from '../observability/channels.js';
import type { ClientCapabilities, CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, ListRootsResult, LoggingLevel, ProgressToken } from '../../wire-types/index.js';
import { revision, type ProtocolVersion } from '../wire/versions.js';

export interface ClientRequestOptions {
  /** Fails the call when the client has not answered in time (default: the server's clientRequestTimeoutMs). */
  timeoutMs?: number;
  /**
   * The stable key of this input in a 2026-07-28 multi round-trip request
   * (`inputRequests` / `inputResponses`). Defaults to `<kind>_<n>` by call order.
   */
  key?: string;
}

/**
 * How a server→client request is carried out: a JSON-RPC request on a legacy
 * connection, or an input request of a Multi Round-Trip Request on a modern one.
 */
export interface InputBroker {
  request(method: string, params: Record<string, unknown>, options: ClientRequestOptions, context: RequestContext): Promise<unknown>;
  /** What a multi round-trip request keeps across rounds: `ctx.requestState` when the context was given none. */
  readonly kept?: Record<string, unknown>;
}

/** Connection-level services a request context uses. */
export interface ContextHost {
  readonly clientRequestTimeoutMs: number;
  readonly outbound: OutboundRequests;
  /** Log threshold of the session (legacy) — modern requests carry their own. */
  readonly sessionLogLevel: LoggingLevel | undefined;
}

export interface RequestContextInit {
  requestId: JsonRpcId;
  method: string;
  abort: LazyAbort;
  protocolVersion: ProtocolVersion;
  era: 'legacy' | 'modern';
  client: ClientView;
  sessionId: string | undefined;
  authInfo: AuthInfo | undefined;
  requestInfo: RequestInfo | undefined;
  meta: Record<string, unknown> | undefined;
  logLevel: LoggingLevel | undefined;
  send: MessageSink;
  broker: InputBroker;
  /** The session's live parts; undefined on the shared stateless connection. */
  host: ContextHost | undefined;
  closeStream: ((options?: { retryMs?: number }) => void) | undefined;
  requestState?: Record<string, unknown>;
  /** Set for tools declared with `taskStart: 'manual'` (tasks extension). */
  startTask?: () => Promise<void>;
}

/** The authenticated caller as handlers see it (`ctx.auth`). */
export interface AuthPrincipal {
  readonly subject: string | undefined;
  readonly clientId: string | undefined;
  readonly scopes: readonly string[];
  /** Seconds since the epoch. */
  readonly expiresAt: number | undefined;
  readonly claims: Readonly<Record<string, unknown>>;
  /** True when the granted scopes cover all of these (scope hierarchies included). */
  hasScopes(...required: string[]): boolean;
}

function principalView(info: AuthInfo): AuthPrincipal {
  const scopes = Object.freeze([...(info.scopes ?? [])]);
  const access = info.access;
  return Object.freeze({
    subject: info.subject,
    clientId: info.clientId,
    scopes,
    expiresAt: info.expiresAt,
    claims: Object.freeze({ ...info.extra }),
    hasScopes: (...required: string[]) => (access !== undefined ? access.permits(required) : required.every((s) => scopes.includes(s))),
  });
}

let flagOf: (ctx: RequestContext) => LazyAbort | undefined;

/**
 * The request's abort flag, for code in this package that passes it on as an AbortSignalLike:
 * reading `ctx.signal` makes an AbortController per request. Undefined for a context made elsewhere.
 */
export function abortFlagOf(ctx: RequestContext): AbortSignalLike | undefined {
  return flagOf(ctx);
}

/**
 * What every tool, resource and prompt handler receives: one API for both
 * protocol eras.
 */
export class RequestContext {
  readonly requestId: JsonRpcId;
  readonly method: string;
  readonly protocolVersion: ProtocolVersion;
  readonly era: 'legacy' | 'modern';
  readonly client: ClientView;
  readonly sessionId: string | undefined;
  readonly authInfo: AuthInfo | undefined;
  readonly requestInfo: RequestInfo | undefined;
  /** The request's `params._meta`, as sent. */
  readonly meta: Record<string, unknown> | undefined;
  readonly #abort: LazyAbort;
  #state: Record<string, unknown> | undefined;
  #requestState: Record<string, unknown> | undefined;
  readonly #send: MessageSink;
  readonly #broker: InputBroker;
  readonly #host: ContextHost | undefined;
  readonly #logLevel: LoggingLevel | undefined;
  readonly #closeStream: RequestContextInit['closeStream'];
  readonly #startTask: (() => Promise<void>) | undefined;
  #lastProgress: number | undefined;
  #principal: AuthPrincipal | undefined;
  #finished = false;

  constructor(init: RequestContextInit) {
    this.requestId = init.requestId;
    this.method = init.method;
    this.#abort = init.abort;
    this.protocolVersion = init.protocolVersion;
    this.era = init.era;
    this.client = init.client;
    this.sessionId = init.sessionId;
    this.authInfo = init.authInfo;
    this.requestInfo = init.requestInfo;
    this.meta = init.meta;
    this.#send = init.send;
    this.#broker = init.broker;
    this.#host = init.host;
    this.#logLevel = init.logLevel;
    this.#closeStream = init.closeStream;
    this.#requestState = init.requestState;
    this.#startTask = init.startTask;
  }

  /**
   * Who the caller is (HTTP with `auth`, or an `authenticate` hook): subject,
   * client id, granted scopes, expiry and claims. Undefined on stdio and for
   * unauthenticated HTTP. Holds no token: see `accessToken()`.
   */
  get auth(): AuthPrincipal | undefined {
    const info = this.authInfo;
    if (info === undefined) return undefined;
    return (this.#principal ??= principalView(info));
  }

  /**
   * The raw bearer token of this request. NEVER FORWARD THIS TOKEN to another
   * service: it was issued for this server only (the MCP spec forbids token
   * passthrough). To call an upstream API, get a token of its own (token
   * exchange, or the server's own client credentials).
   */
  accessToken(): string | undefined {
    return accessTokenOf(this.authInfo);
  }

  /** Aborted on cancellation, client disconnect, timeout or server shutdown. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  static {
    flagOf = (ctx) => (#abort in ctx ? ctx.#abort : undefined);
  }

  /** Per-request scratch space for middleware and handlers. */
  get state(): Record<string, unknown> {
    return (this.#state ??= {});
  }

  /**
   * Data kept across the rounds of a 2026-07-28 multi round-trip request: set
   * fields here and they come back (signed, tamper-proof) when the client retries.
   */
  get requestState(): Record<string, unknown> {
    return (this.#requestState ??= this.#broker.kept ?? {});
  }

  /** The request's progress token, when the client asked for progress. */
  get progressToken(): ProgressToken | undefined {
    const token = this.meta?.['progressToken'];
    return typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

  /** Reports progress; a no-op when the client sent no progress token or the request was answered. Values must increase. */
  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.progressToken;
    if (progressToken === undefined || this.#finished) return;
    if (!Number.isFinite(progress) || (this.#lastProgress !== undefined && progress <= this.#lastProgress)) {
      throw new RangeError(`Progress must increase with every notification: got ${progress} after ${this.#lastProgress ?? 'nothing'}`);
    }
    this.#lastProgress = progress;
    const params: Record<string, unknown> = { progressToken, progress };
    if (total !== undefined) params['total'] = total;
    if (message !== undefined) params['message'] = message;
    await this.#send({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  /** The level at or above which log messages reach the client for this request (undefined: none). */
  get logLevel(): LoggingLevel | undefined {
    return this.era === 'modern' ? this.#logLevel : this.#host?.sessionLogLevel ?? this.#logLevel ?? 'debug';
  }

  /** Sends `notifications/message` when `level` passes the client's threshold. */
  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    if (!shouldLog(level, this.logLevel)) return;
    // An Error would be sent as {}: its name and message instead (never the stack).
    const params: Record<string, unknown> = { level, data: withPlainErrors(data) };
    if (logger !== undefined) params['logger'] = logger;
    await this.#send({ jsonrpc: '2.0', method: 'notifications/message', params });
  }

  /** Sends any notification related to this request. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    await this.#send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Asks the user for input through the client (form or URL mode). */
  async elicit(params: ElicitParams, options: ClientRequestOptions = {}): Promise<ElicitResult> {
    const mode = params.mode ?? 'form';
    const declared = this.client.capabilities.elicitation;
    const supported = declared !== undefined && (mode === 'url' ? declared.url !== undefined : declared.url === undefined || declared.form !== undefined);
    if (!supported) throw this.#missingCapability({ elicitation: mode === 'url' ? { url: {} } : {} }, `elicitation (${mode} mode)`);
    return (await this.#ask('elicitation/create', params as unknown as Record<string, unknown>, options)) as ElicitResult;
  }

  /** Asks the client's model for a completion (sampling). */
  async sample(params: CreateMessageParams, options: ClientRequestOptions = {}): Promise<CreateMessageResult> {
    const declared = this.client.capabilities.sampling;
    if (declared === undefined) throw this.#missingCapability({ sampling: {} }, 'sampling');
    if ((params.tools !== undefined || params.toolChoice !== undefined) && declared.tools === undefined) {
      throw this.#missingCapability({ sampling: { tools: {} } }, 'sampling with tools');
    }
    // From 2025-11-25, asking the client to include context needs its `sampling.context` capability.
    const withContext = params.includeContext === 'thisServer' || params.includeContext === 'allServers';
    if (withContext && declared.context === undefined && revision(this.protocolVersion).features.samplingContextCapability) {
      throw this.#missingCapability({ sampling: { context: {} } }, 'sampling with context');
    }
    return (await this.#ask('sampling/createMessage', params as unknown as Record<string, unknown>, options)) as CreateMessageResult;
  }

  /** Asks the client for its roots. */
  async listRoots(options: ClientRequestOptions = {}): Promise<ListRootsResult> {
    if (this.client.capabilities.roots === undefined) throw this.#missingCapability({ roots: {} }, 'roots');
    return (await this.#ask('roots/list', {}, options)) as ListRootsResult;
  }

  /**
   * The error for a client capability the request lacks. A legacy request on the shared stateless
   * endpoint never has one: its client's `initialize` was not kept, and no session could carry a
   * server→client request anyway. Saying "the client did not declare" there would send the user
   * looking at a client that did.
   */
  #missingCapability(required: ClientCapabilities, what: string): JsonRpcProtocolError {
    if (this.era === 'legacy' && this.#host === undefined) {
      return new JsonRpcProtocolError(
        ErrorCode.InternalError,
        `This request needs the client capability "${what}", which a stateless endpoint (stateless: true, the mountMcpHttp default) cannot know or use: ` +
          'it keeps no session, so a legacy client\'s initialize is not remembered and the server cannot send it requests. ' +
          'Serve with sessions (stateless: false, the listen default) or have the client speak 2026-07-28',
      );
    }
    return new MissingClientCapabilityError(required, what);
  }

  /** Every server→client request goes through here: the observability hook sees both eras (docs/observability.md). */
  #ask(method: string, params: Record<string, unknown>, options: ClientRequestOptions): Promise<unknown> {
    if (!tracingClientRequests()) return this.#broker.request(method, params, options, this);
    const message = { method, params, era: this.era, requestId: this.requestId, requestMethod: this.method, sessionId: this.sessionId, protocolVersion: this.protocolVersion };
    return traceClientRequest(message, (sent) => this.#broker.request(method, sent, options, this));
  }

  /**
   * For a tool declared with `task` and `taskStart: 'manual'`: ends the part of
   * the handler that runs inside the `tools/call` request (where it may still ask
   * for input) and creates the task; the client gets its CreateTaskResult and the
   * handler continues in the background. Resolves at once everywhere else.
   */
  startTask(): Promise<void> {
    return this.#startTask?.() ?? Promise.resolve();
  }

  /** Ends the response stream early (SSE polling); the result is delivered when the client resumes. */
  closeStream(options?: { retryMs?: number }): boolean {
    if (!this.#closeStream) return false;
    this.#closeStream(options);
    return true;
  }

  /** @internal the request was answered (or will get no answer): its progress token is spent */
  finish(): void {
    this.#finished = true;
  }

  /** @internal the sink for this request's messages */
  get sink(): MessageSink {
    return this.#send;
  }

  /** @internal the session this request arrived on */
  get host(): ContextHost | undefined {
    return this.#host;
  }
}
