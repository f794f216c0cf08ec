import type { ProviderCatalog } from '../../registries/catalog.js';
import type { McpPromptRegistry } from '../../registries/prompts.js';
import type { McpResourceRegistry } from '../../registries/resources.js';
import type { McpToolRegistry } from '../../registries/tools.js';
import type { NotificationBus } from '../../stores/bus.js';
import type { RequestContext } from '../request/context.js';
import { DEFAULT_MAX_BATCH_SIZE, type Logger, type McpProtocolHandlerDeps, type ProtocolHooks, type ProtocolOptions } from './options.js';
import { META_SERVER_INFO } from '../wire/meta-keys.js';
import { serverInfoOf, type McpServerMetadata } from '../wire/metadata.js';
import type { Middleware } from '../request/middleware.js';
import { DEFAULT_MAX_SUBSCRIPTION_BYTES, DEFAULT_MAX_SUBSCRIPTIONS, type SubscriptionLimits } from './subscription-set.js';
import { TaskRuntime } from './task-runtime.js';
import type { SkillsPort } from './skills-port.js';
import { isLegacyVersion, MODERN_VERSIONS, SUPPORTED_VERSIONS, type ProtocolVersion } from '../wire/versions.js';

interface CachedView {
  version: number;
  base: unknown;
  view: unknown;
}

/**
 * Everything one server shares with all its connections: registries, metadata
 * and the wire views derived from them, options, logger, notification bus,
 * task runtime and middleware. One per McpServer; connections hold a reference.
 */
export class ServerScope {
  readonly tools: McpToolRegistry<RequestContext>;
  readonly resources: McpResourceRegistry<RequestContext>;
  readonly prompts: McpPromptRegistry<RequestContext>;
  readonly options: ProtocolOptions;
  readonly middleware: readonly Middleware[];
  readonly logger: Logger | undefined;
  readonly bus: NotificationBus | undefined;
  readonly hooks: ProtocolHooks | undefined;
  /** Limits of one session's (or one listen stream's) resource subscriptions. */
  readonly subscriptionLimits: SubscriptionLimits;
  /** How long a server→client request waits for its answer. */
  readonly clientRequestTimeoutMs: number;
  /** The revisions `initialize` may negotiate, and those served per request (2026-07-28). */
  readonly legacyVersions: readonly ProtocolVersion[];
  readonly modernVersions: readonly string[];
  /** Most messages in one batch (`maxBatchSize`). */
  readonly maxBatchSize: number;
  /**
   * The registries and the server's providers (mounts, proxies), once one was
   * added; undefined while the registries are all there is (the path without it is unchanged).
   */
  catalog: ProviderCatalog<RequestContext> | undefined;
  /** The skills extension's catalog, once `server.skills()` was called (skills/list, skills/get). */
  skills: SkillsPort | undefined;
  readonly #metadata: () => McpServerMetadata;
  #views: Map<string, CachedView> | undefined;
  #serverInfoMeta: { metadata: McpServerMetadata; meta: Readonly<Record<string, unknown>> } | undefined;
  #tasks: TaskRuntime | undefined;

  constructor(parts: McpProtocolHandlerDeps) {
    this.tools = parts.tools;
    this.resources = parts.resources;
    this.prompts = parts.prompts;
    this.#metadata = () => parts.getMetadata();
    const options = (this.options = parts.options ?? {});
    this.middleware = parts.middleware ?? [];
    this.logger = parts.logger;
    this.bus = parts.bus;
    this.hooks = parts.hooks;
    this.subscriptionLimits = Object.freeze({
      maxSubscriptions: options.maxSubscriptionsPerSession ?? DEFAULT_MAX_SUBSCRIPTIONS,
      maxSubscriptionBytes: options.maxSubscriptionBytesPerSession ?? DEFAULT_MAX_SUBSCRIPTION_BYTES,
    });
    this.clientRequestTimeoutMs = options.clientRequestTimeoutMs ?? 60_000;
    this.legacyVersions = Object.freeze((options.protocolVersions ?? SUPPORTED_VERSIONS).filter(isLegacyVersion));
    this.modernVersions = Object.freeze((options.protocolVersions ?? MODERN_VERSIONS).filter((v) => !isLegacyVersion(v)));
    this.maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
  }

  /** Name, version, capabilities: the one source `initialize` and `server/discover` read. */
  getMetadata(): McpServerMetadata {
    return this.#metadata();
  }

  /**
   * A wire view derived from a registry (or the metadata), rebuilt only when
   * `version` or `base` changes: nothing is rebuilt per request while they hold.
   */
  view<V>(key: string, version: number, base: unknown, build: () => V): V {
    const views = (this.#views ??= new Map<string, CachedView>());
    const hit = views.get(key);
    if (hit !== undefined && hit.version === version && hit.base === base) return hit.view as V;
    const view = build();
    views.set(key, { version, base, view });
    return view;
  }

  /** `{ "io.modelcontextprotocol/serverInfo": … }` for 2026-07-28 results, built once per metadata. */
  serverInfoMeta(): Readonly<Record<string, unknown>> {
    const metadata = this.#metadata();
    const cached = this.#serverInfoMeta;
    if (cached?.metadata === metadata) return cached.meta;
    const meta = Object.freeze({ [META_SERVER_INFO]: Object.freeze(serverInfoOf(metadata)) });
    this.#serverInfoMeta = { metadata, meta };
    return meta;
  }

  /** The task store and the task handlers running in this process (tasks extension), created on first use. */
  get tasks(): TaskRuntime {
    return (this.#tasks ??= new TaskRuntime(this.options, this.logger));
  }
}
