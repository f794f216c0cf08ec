import type { McpPromptRegistry } from '../../registries/prompts.js';
import type { McpResourceRegistry } from '../../registries/resources.js';
import type { McpToolRegistry } from '../../registries/tools.js';
import type { NotificationBus } from '../../stores/bus.js';
import type { TaskStore } from '../../stores/tasks.js';
import type { TaskChannel } from '../../stores/task-channel.js';
import type { AuthInfo } from '../connection.js';
import type { RequestContext } from '../request/context.js';
import type { McpServerMetadata } from '../wire/metadata.js';
import type { Middleware } from '../request/middleware.js';
import type { ProtocolVersion } from '../wire/versions.js';

/** Default of `maxBatchSize` (every transport). */
export const DEFAULT_MAX_BATCH_SIZE = 100;

export interface Logger {
  debug?(message: string, ...args: unknown[]): void;
  info?(message: string, ...args: unknown[]): void;
  warn?(message: string, ...args: unknown[]): void;
  error?(message: string, ...args: unknown[]): void;
}

/**
 * How the protocol layer runs, grouped by concern: what a peer may make it hold (`limits`), what
 * results carry (`results`), how MRTR `requestState` is signed (`requestState`), where tasks live
 * (`tasks`). Read once when the server is built.
 */
export interface ProtocolOptions {
  /**
   * The revisions this server accepts (default: all it knows): what `initialize`
   * may negotiate, what 2026-07-28 requests may name, and (HTTP) the
   * `MCP-Protocol-Version` values accepted on session requests.
   */
  protocolVersions?: readonly ProtocolVersion[];
  /** Bounds on what one peer can make the server hold or wait for. */
  limits?: ProtocolLimits;
  /** What answers carry: pages, error text, 2026-07-28 `_meta`. */
  results?: ResultOptions;
  /** The keys signing MRTR `requestState` (2026-07-28 multi round-trip requests). */
  requestState?: RequestStateOptions;
  /** Where 2026-07-28 tasks (SEP-2663) live and how long they wait for input. */
  tasks?: ServerTaskOptions;
}

export interface ProtocolLimits {
  /**
   * Most messages in one JSON-RPC batch, on every transport (default 100): beyond
   * it the batch is refused with -32600 (HTTP: 400, before anything runs).
   */
  maxBatchSize?: number;
  /** Server-wide timeout for every request (a tool's own `timeoutMs` wins for tools/call). */
  requestTimeoutMs?: number;
  /** How long a server→client request (elicitation, sampling, roots) waits for the answer. Default 60 s. */
  clientRequestTimeoutMs?: number;
  /** Most resources one legacy session (or one `subscriptions/listen` stream) may subscribe to (default 1000). */
  maxSubscriptionsPerSession?: number;
  /** Most bytes (UTF-8 URIs) those subscriptions may hold (default 256 KiB). */
  maxSubscriptionBytesPerSession?: number;
  /** Most server→client requests (elicitation, sampling, roots) awaiting an answer per legacy session (default 64). */
  maxPendingClientRequests?: number;
  /** Most bytes (JSON params) those requests may hold (default 1 MiB). */
  maxPendingClientRequestBytes?: number;
}

export interface ResultOptions {
  /** Items per page of every list method; unset returns whole lists. */
  pageSize?: number;
  /** Replace the message of any tool error that is not a `ToolError` with "Internal error". */
  maskErrors?: boolean;
  /**
   * 2026-07-28 cache hints per cacheable method (`tools/list`, `resources/read`, …)
   * or `default`. Unset: `{ ttlMs: 0, cacheScope: 'private' }` (always fresh, never shared).
   */
  cacheHints?: Partial<Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }>>;
  /** Put `io.modelcontextprotocol/serverInfo` in every 2026-07-28 result's `_meta` (default true). */
  serverInfoInMeta?: boolean;
}

export interface RequestStateOptions {
  /**
   * A key ring: the first signs, every one verifies (add the new key first, drop the old one
   * after `ttlMs`). Each at least 32 bytes. Several instances behind one load balancer must
   * share it. Default: one random key per process.
   */
  keys?: readonly (string | Uint8Array)[];
  /** How long a signed `requestState` stays valid (default 10 minutes). */
  ttlMs?: number;
}

interface TaskTimeouts {
  /**
   * How long a 2026-07-28 task waits in `input_required` for one answer before it
   * fails (default 10 minutes; a call's own `timeoutMs` wins).
   */
  inputTimeoutMs?: number;
}

/**
 * Tasks in one process (the default store), or shared by several: a `channel` (task input,
 * cancellation and status between instances) only with the `store` they share —
 * `mcpkit/redis`'s createRedisState builds both.
 */
export type ServerTaskOptions =
  | (TaskTimeouts & { /** Where tasks live (default: a MemoryTaskStore per server). */ store?: TaskStore; channel?: never })
  | (TaskTimeouts & { store: TaskStore; /** Carries task input, cancellation and status changes between the instances sharing `store`. */ channel: TaskChannel });

export interface ProtocolHooks {
  onRootsListChanged?(info: { sessionId: string | undefined; authInfo: AuthInfo | undefined }): void | Promise<void>;
  onNotification?(method: string, params: Record<string, unknown>, info: { sessionId: string | undefined }): void | Promise<void>;
}

/** What a protocol handler needs: the registries, the metadata builder, options. */
export interface McpProtocolHandlerDeps {
  tools: McpToolRegistry<RequestContext>;
  resources: McpResourceRegistry<RequestContext>;
  prompts: McpPromptRegistry<RequestContext>;
  getMetadata(): McpServerMetadata;
  options?: ProtocolOptions | undefined;
  middleware?: readonly Middleware[] | undefined;
  logger?: Logger | undefined;
  bus?: NotificationBus | undefined;
  hooks?: ProtocolHooks | undefined;
}
