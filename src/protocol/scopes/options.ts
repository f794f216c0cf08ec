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

export interface ProtocolOptions {
  /** Items per page of every list method; unset returns whole lists. */
  pageSize?: number;
  /** Server-wide timeout for every request (a tool's own `timeoutMs` wins for tools/call). */
  requestTimeoutMs?: number;
  /** How long a server→client request (elicitation, sampling, roots) waits for the answer. Default 60 s. */
  clientRequestTimeoutMs?: number;
  /** Replace the message of any tool error that is not a `ToolError` with "Internal error". */
  maskErrors?: boolean;
  /**
   * Most messages in one JSON-RPC batch, on every transport (default 100): beyond
   * it the batch is refused with -32600 (HTTP: 400, before anything runs).
   */
  maxBatchSize?: number;
  /**
   * The revisions this server accepts (default: all it knows): what `initialize`
   * may negotiate, what 2026-07-28 requests may name, and (HTTP) the
   * `MCP-Protocol-Version` values accepted on session requests.
   */
  protocolVersions?: readonly ProtocolVersion[];
  /**
   * 2026-07-28 cache hints per cacheable method (`tools/list`, `resources/read`, …)
   * or `default`. Unset: `{ ttlMs: 0, cacheScope: 'private' }` (always fresh, never shared).
   */
  cacheHints?: Partial<Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }>>;
  /** Put `io.modelcontextprotocol/serverInfo` in every 2026-07-28 result's `_meta` (default true). */
  serverInfoInMeta?: boolean;
  /**
   * Keys signing MRTR `requestState`, as a ring: the first signs, every one verifies
   * (add the new key first, drop the old one after `requestStateTtlMs`). Each at least
   * 32 bytes. Several instances behind one load balancer must share it. Default: one
   * random key per process.
   */
  requestStateKeys?: readonly (string | Uint8Array)[];
  /** How long a signed `requestState` stays valid (default 10 minutes). */
  requestStateTtlMs?: number;
  /** Where 2026-07-28 tasks (SEP-2663) live (default: a MemoryTaskStore per server). */
  taskStore?: TaskStore;
  /**
   * Carries task input, cancellation and status changes between instances that share
   * `taskStore` (`mcpkit/redis`'s createRedisState sets both). Default: none (one process).
   */
  taskChannel?: TaskChannel;
  /**
   * How long a 2026-07-28 task waits in `input_required` for one answer before it
   * fails (default 10 minutes; a call's own `timeoutMs` wins).
   */
  taskInputTimeoutMs?: number;
  /** Most resources one legacy session (or one `subscriptions/listen` stream) may subscribe to (default 1000). */
  maxSubscriptionsPerSession?: number;
  /** Most bytes (UTF-8 URIs) those subscriptions may hold (default 256 KiB). */
  maxSubscriptionBytesPerSession?: number;
  /** Most server→client requests (elicitation, sampling, roots) awaiting an answer per legacy session (default 64). */
  maxPendingClientRequests?: number;
  /** Most bytes (JSON params) those requests may hold (default 1 MiB). */
  maxPendingClientRequestBytes?: number;
}

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
