/** The client's options and per-request options, checked at construction; the capabilities they imply. */
import { SUPPORTED_VERSIONS, type ProtocolVersion } from '../protocol/wire/versions.js';
import type { ClientCapabilities, CreateMessageParams, CreateMessageResult, DiscoverResult, ElicitFormParams, ElicitResult, ElicitUrlParams, Implementation, LoggingLevel, Root } from '../wire-types/index.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import type { AbortSignalLike } from '../protocol/connection.js';
import type { CallTaskOptions, TaskDefaults, TaskWaitOptions } from './task-types.js';

export type Json = Record<string, unknown>;

/** What a handler for a server's request receives besides the params. */
export interface HandlerExtra {
  /** Aborted when the server cancels the request or the client closes. */
  signal: AbortSignal;
}

export type SamplingHandler = (params: CreateMessageParams, extra: HandlerExtra) => CreateMessageResult | Promise<CreateMessageResult>;
export type ElicitationHandler<P = ElicitFormParams | ElicitUrlParams> = (params: P, extra: HandlerExtra) => ElicitResult | Promise<ElicitResult>;
export type RootsSource = readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);

export interface ClientOptions {
  /** Default `{ name: 'mcpkit-client', version: '0.0.0' }`. */
  clientInfo?: Implementation;
  /**
   * `'auto'` (default): 2026-07-28 when the server answers `server/discover`,
   * else `initialize` with the latest legacy revision. A revision: only that one.
   */
  protocolVersion?: 'auto' | ProtocolVersion;
  /** Answers `sampling/createMessage`; declares the `sampling` capability. */
  sampling?: SamplingHandler;
  /** Answers `elicitation/create`: one handler for both modes, or one per mode (declares the modes given). */
  elicitation?: ElicitationHandler | { form?: ElicitationHandler<ElicitFormParams>; url?: ElicitationHandler<ElicitUrlParams> };
  /** Answers `roots/list`; declares `roots` with `listChanged` (see `rootsChanged`). */
  roots?: RootsSource;
  /** Merged over the capabilities the handlers imply (e.g. `experimental`, `extensions`). */
  capabilities?: ClientCapabilities;
  /** Sent in every 2026-07-28 request's `_meta` (`setLoggingLevel` on legacy). */
  logLevel?: LoggingLevel;
  /** Per request unless the request says otherwise (default 60 000 ms). */
  requestTimeoutMs?: number;
  /** Requests in flight at once (default 1024); more are refused at once. */
  maxPendingRequests?: number;
  /** Server→client requests answered at once (default 64); more are answered with an error. */
  maxInboundRequests?: number;
  /** Input-required rounds of one 2026-07-28 request (default 10). */
  maxInputRounds?: number;
  /** Check `structuredContent` against the tool's `outputSchema` (default true; the tool must have been listed). */
  validateStructuredContent?: boolean;
  /** A `server/discover` result kept from an earlier connection: reconnecting costs no round trip. */
  discover?: DiscoverResult;
  /** Something the server did that the client put up with (garbage, unknown ids, invalid tools). */
  onWarning?: (message: string) => void;
  /**
   * The tasks extension (2026-07-28): declared by default, so a tool the server
   * runs as a task is awaited by `callTool`; the defaults of that wait
   * (`maxWaitMs`, `listen`). `false`: not declared (a `task: 'required'` tool is then refused).
   */
  tasks?: false | TaskDefaults;
}

export interface RequestOptions {
  /**
   * Aborting it cancels the request (`McpTransportError('aborted')`). An AbortSignal, or any
   * `AbortSignalLike` (a server request's abort flag, a transport's close signal): it is listened to,
   * never turned into an AbortController.
   */
  signal?: AbortSignalLike;
  /** Overrides `requestTimeoutMs` (0: none). */
  timeoutMs?: number;
  /** A progress notification restarts the timeout. */
  resetTimeoutOnProgress?: boolean;
  /** Called with each `notifications/progress` for this request (a progress token is sent). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Extra `params._meta` fields. */
  meta?: Json;
}

export interface CallToolOptions extends RequestOptions {
  /** Throw a `ToolResultError` for an `isError` result instead of returning it. */
  throwOnError?: boolean;
  /** How a call that runs as a task is awaited (the request's `signal` also aborts the wait and cancels the task); 2025-11-25: `create` for an `optional` tool. */
  task?: CallTaskOptions;
}

/** `client.tasks.start` options. */
export interface TaskStartOptions extends RequestOptions {
  /** 2025-11-25: the retention asked for (`task.ttl`); the server may grant another. */
  ttlMs?: number;
}

export interface ListOptions extends RequestOptions {
  cursor?: string;
  /** Use a 2026-07-28 cached first page while its `ttlMs` lasts (default true). */
  cache?: boolean;
}

export const CLIENT_OPTION_KEYS = keysOf<ClientOptions>({
  clientInfo: true,
  protocolVersion: true,
  sampling: true,
  elicitation: true,
  roots: true,
  capabilities: true,
  logLevel: true,
  requestTimeoutMs: true,
  maxPendingRequests: true,
  maxInboundRequests: true,
  maxInputRounds: true,
  validateStructuredContent: true,
  discover: true,
  onWarning: true,
  tasks: true,
});

const TASK_DEFAULT_KEYS = keysOf<TaskDefaults>({ maxWaitMs: true, listen: true });

export function checkOptions(options: ClientOptions): void {
  refuseUnknownKeys(options, CLIENT_OPTION_KEYS, 'new Client() options');
  if (options.tasks !== undefined && options.tasks !== false) {
    if (typeof options.tasks !== 'object' || options.tasks === null) throw new TypeError(`Client option tasks must be false or { maxWaitMs?, listen? } (got ${JSON.stringify(options.tasks)})`);
    refuseUnknownKeys(options.tasks, TASK_DEFAULT_KEYS, 'new Client() option tasks');
    const wait = options.tasks.maxWaitMs;
    if (wait !== undefined && !(Number.isInteger(wait) && wait >= 0)) throw new TypeError(`Client option tasks.maxWaitMs must be a non-negative integer (0: no bound), got ${JSON.stringify(wait)}`);
  }
  const v = options.protocolVersion;
  if (v !== undefined && v !== 'auto' && !(SUPPORTED_VERSIONS as readonly string[]).includes(v)) {
    throw new TypeError(`Client option protocolVersion must be 'auto' or one of ${SUPPORTED_VERSIONS.join(', ')} (got ${JSON.stringify(v)})`);
  }
}

/** The capabilities the handlers imply, with `options.capabilities` over them. */
export function capabilitiesOf(options: ClientOptions): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (options.sampling !== undefined) caps.sampling = {};
  if (options.roots !== undefined) caps.roots = { listChanged: true };
  const e = options.elicitation;
  if (typeof e === 'function') caps.elicitation = { form: {}, url: {} };
  else if (e !== undefined) {
    caps.elicitation = {};
    if (e.form !== undefined) caps.elicitation.form = {};
    if (e.url !== undefined) caps.elicitation.url = {};
  }
  return { ...caps, ...options.capabilities };
}

/** How callTool waits for a task it ran: the caller's task options and signal. */
export function waitOptionsOf(options: CallToolOptions): TaskWaitOptions {
  const { create: _create, ttlMs: _ttlMs, ...wait } = options.task ?? {};
  return options.signal === undefined ? wait : { ...wait, signal: options.signal };
}

export function withCursor(options: RequestOptions | undefined, cursor: string | undefined): ListOptions {
  return { ...options, ...(cursor === undefined ? {} : { cursor }) };
}
