import type { ConnectionFactory, ConnectionOptions, HandleResult, McpConnection } from '../protocol/connection.js';
import { ServerScope } from '../protocol/scopes/server-scope.js';
import { SUPPORTED_VERSIONS } from '../protocol/wire/versions.js';
import { parseSessionRecord, type SessionRecord } from '../protocol/wire/session-record.js';
import type { RequestContext } from '../protocol/request/context.js';
import type { Logger } from '../protocol/scopes/options.js';
import { McpProtocolHandler } from '../protocol/dispatch/protocol-handler.js';
import { methodTable } from '../protocol/methods/table.js';
import { buildServerMetadata, type McpServerMetadata } from '../protocol/wire/metadata.js';
import type { Middleware } from '../protocol/request/middleware.js';
import type { MiddlewareFn } from '../protocol/methods/middleware-types.js';
import type { ServerCapabilities } from '../wire-types/index.js';
import { errorResponseFrom, parseErrorResponse } from '../jsonrpc/errors.js';
import { isPlainObject, isValidId, type JsonRpcErrorResponse } from '../jsonrpc/message.js';
import { McpPromptRegistry } from '../registries/prompts.js';
import { McpResourceRegistry } from '../registries/resources.js';
import { McpToolRegistry } from '../registries/tools.js';
import { MemoryNotificationBus, type NotificationBus } from '../stores/bus.js';
import { hasSharedStateKey, stateKeyRing } from '../protocol/request/request-state.js';
import { InvalidJsonError, LineTooLongError } from '../transports/stdio.js';
import type { McpTransport } from '../transports/transport.js';
import { Authoring } from './authoring.js';
import { ExtensionSet, type ExtensionOptions, type ExtensionSettings } from '../protocol/extensions.js';
import { taskOptionsOf, TASKS_EXTENSION } from '../protocol/scopes/task-runtime.js';
import { refuseUnknownKeysIn } from '../util/known-keys.js';
import { SERVER_KEYS, stderrLogger, type McpServerConfig } from './config.js';
import { SkillCatalog } from '../skills/catalog.js';
import { SKILLS_EXTENSION } from '../skills/format/verify.js';
import { checkOptions, type SkillSource, type SkillsOptions } from '../skills/options.js';
import { RegistrationError } from '../registries/checks.js';
import { listedNow, ProviderCatalog, shadowedIn, type McpProviderListKind } from '../registries/catalog.js';
import { ChangeEmitter } from '../registries/events.js';
import type { McpProvider, McpProviderChange, McpProviderList } from '../registries/provider.js';
import { serverProvider } from './mount/server-provider.js';
import { mountProvider, type McpMountOptions } from './mount/mount.js';
import type { McpNaming } from './mount/namespace.js';

/** What `provide()` and `mount()` answer: `remove()` takes the provider out again (its lists change). */
export interface McpProvided {
  remove(): void;
}

const KINDS_OF: Record<McpProviderList, readonly McpProviderListKind[]> = { tools: ['tools'], resources: ['resources', 'resourceTemplates'], prompts: ['prompts'] };

export type { McpServerConfig, McpServerLimits } from './config.js';

interface Attached {
  transport: McpTransport;
  connection: McpProtocolHandler;
}

/**
 * An MCP server: the registries, the metadata, and the connections opened on
 * it. One server serves any number of connections (stdio, HTTP sessions, the
 * stateless endpoint) at once.
 */
export class McpServer extends Authoring implements ConnectionFactory {
  readonly tools = new McpToolRegistry<RequestContext>();
  readonly resources = new McpResourceRegistry<RequestContext>();
  readonly prompts = new McpPromptRegistry<RequestContext>();
  readonly config: McpServerConfig;
  readonly #middleware: Middleware[] = [];
  readonly #connections = new Set<McpProtocolHandler>();
  readonly #attached: Attached[] = [];
  readonly #extensions = new ExtensionSet();
  readonly #rootsListeners = new Set<(info: { sessionId: string | undefined }) => void>();
  readonly #bus: NotificationBus;
  readonly #scope: ServerScope;
  #metadata: { key: number; value: McpServerMetadata } | undefined;
  #skills: SkillCatalog | undefined;
  #started = false;
  readonly #sessionListeners = new Set<(info: { sessionId: string }) => void>();
  /**
   * Open connections per session id. A cluster's copy of a session replaces its connection when
   * the record changed on another instance: the session closes with its last connection, not each.
   */
  readonly #sessionConnections = new Map<string, number>();
  readonly #release = (connection: McpProtocolHandler): void => {
    if (!this.#connections.delete(connection)) return;
    const sessionId = connection.sessionId;
    if (sessionId === undefined) return;
    const left = (this.#sessionConnections.get(sessionId) ?? 1) - 1;
    if (left > 0) return void this.#sessionConnections.set(sessionId, left);
    this.#sessionConnections.delete(sessionId);
    this.#scope.catalog?.sessionClosed(sessionId);
    for (const listener of [...this.#sessionListeners]) listener({ sessionId });
  };
  #pendingLists = new Set<'tools' | 'resources' | 'prompts'>();
  #flushScheduled = false;
  /** What this server tells a parent it is mounted in (list changes at once, resource updates). */
  readonly #changes = new ChangeEmitter<McpProviderChange>();
  #asProvider: McpProvider<RequestContext> | undefined;
  readonly #namings = new Map<string, McpNaming>();
  /** Name conflicts already logged (one warning per name). */
  readonly #warned = new Set<string>();

  constructor(config: McpServerConfig) {
    super();
    if (typeof config?.name !== 'string' || typeof config.version !== 'string') {
      throw new TypeError('McpServer needs a config with a string name and version');
    }
    refuseUnknownKeysIn(config, SERVER_KEYS, 'new McpServer() config');
    // A channel carries task changes between instances sharing one store: without that store it carries nothing.
    if (config.tasks?.channel !== undefined && config.tasks.store === undefined) {
      throw new TypeError('tasks.channel needs tasks.store: the channel carries task changes between the instances sharing that store');
    }
    this.config = config;
    if (config.limits?.maxUriLength !== undefined) this.resources.maxUriLength = config.limits.maxUriLength;
    if (config.strictToolNames === false) this.tools.strictNames = false;
    // A key ring that cannot sign is a configuration error: refuse it now, not at the first MRTR round.
    if (config.requestState?.keys !== undefined) stateKeyRing(config.requestState);
    const logger = config.logger ?? stderrLogger;
    this.#bus = config.bus ?? new MemoryNotificationBus({ onListenerError: (error) => logger.error?.('mcpkit: a notification bus listener failed', error) });
    this.#scope = new ServerScope({
      tools: this.tools,
      resources: this.resources,
      prompts: this.prompts,
      getMetadata: () => this.getMetadata(),
      options: config,
      middleware: this.#middleware,
      logger,
      bus: this.#bus,
      hooks: {
        onRootsListChanged: (info) => {
          for (const listener of this.#rootsListeners) listener(info);
        },
      },
    });
    // One bus subscription per server, fanned out to its connections.
    this.#bus.subscribe((event) => {
      for (const connection of this.#connections) connection.deliver(event);
    });
    this.tools.onChange((change) => {
      // The tasks extension is declared like any other, once a tool can run as a task (2026-07-28 only).
      if (change.type !== 'removed' && !this.#extensions.has(TASKS_EXTENSION) && taskOptionsOf(this.tools.get(change.key)) !== undefined) {
        this.#extensions.declare(TASKS_EXTENSION, {}, { legacy: false });
      }
      this.#listChanged('tools');
    });
    this.resources.onChange(() => this.#listChanged('resources'));
    this.resources.templates.onChange(() => this.#listChanged('resources'));
    this.prompts.onChange(() => this.#listChanged('prompts'));
  }

  /** Name, version, protocol version and capabilities: the one source `initialize` and `server/discover` read. */
  getMetadata(): McpServerMetadata {
    // Registry versions only grow, so their sum changes whenever any of them does (no string per call).
    const catalog = this.#scope.catalog;
    const key = (catalog !== undefined ? catalog.version : this.tools.version + this.resources.version + this.resources.templates.version + this.prompts.version) + this.#extensions.version;
    if (this.#metadata?.key === key) return this.#metadata.value;
    const value = buildServerMetadata({
      name: this.config.name,
      version: this.config.version,
      title: this.config.title,
      description: this.config.description,
      websiteUrl: this.config.websiteUrl,
      icons: this.config.icons,
      instructions: this.config.instructions,
      ...this.#capabilities(),
    });
    this.#metadata = { key, value };
    return value;
  }

  /**
   * Declared exactly when available: a capability appears once something provides it.
   * `server/discover` also lists the extensions that exist only in 2026-07-28 (tasks).
   */
  #capabilities(): { capabilities: ServerCapabilities; modernCapabilities: ServerCapabilities | undefined } {
    const extra = this.config.capabilities ?? {};
    const caps: ServerCapabilities = {};
    const providers = this.#scope.catalog?.providers ?? [];
    const hasTemplates = this.resources.templates.size > 0 || providers.some((p) => p.listResourceTemplates !== undefined);
    const hasResources = this.resources.size > 0 || hasTemplates || providers.some((p) => p.listResources !== undefined || p.findResource !== undefined);
    const hasPrompts = this.prompts.size > 0 || providers.some((p) => p.listPrompts !== undefined || p.findPrompt !== undefined);
    const hasTools = this.tools.size > 0 || providers.some((p) => p.listTools !== undefined || p.findTool !== undefined);
    if (hasTools || extra.tools) caps.tools = { listChanged: true, ...extra.tools };
    if (hasResources || extra.resources) caps.resources = { subscribe: true, listChanged: true, ...extra.resources };
    if (hasPrompts || extra.prompts) caps.prompts = { listChanged: true, ...extra.prompts };
    caps.logging = {};
    if (hasPrompts || hasTemplates || extra.completions) caps.completions = {};
    for (const [key, value] of Object.entries(extra)) if (caps[key] === undefined && key !== 'extensions') caps[key] = value;
    const legacy = this.#extensions.toCapabilities('legacy');
    const modern = this.#extensions.toCapabilities('modern');
    const withExtensions = (listed: Record<string, ExtensionSettings> | undefined): ServerCapabilities =>
      listed === undefined && extra.extensions === undefined ? caps : { ...caps, extensions: { ...extra.extensions, ...listed } };
    const capabilities = withExtensions(legacy);
    const modernOnly = Object.keys(modern ?? {}).length > Object.keys(legacy ?? {}).length;
    return { capabilities, modernCapabilities: modernOnly ? withExtensions(modern) : undefined };
  }

  /**
   * Declares an extension (docs/extensions.md): listed in `capabilities.extensions` of
   * `server/discover` and (unless `legacy: false`) of legacy `initialize`. Handlers ask
   * whether the caller declared it too with `ctx.client.supports(id)` (or a tool's `requires`).
   */
  extension(id: string, settings: ExtensionSettings = {}, options: ExtensionOptions = {}): this {
    this.#extensions.declare(id, settings, options);
    return this;
  }

  /**
   * Serves Agent Skills (SEP-2640, docs/skills.md): each skill folder (or skill in memory)
   * becomes `skill://<prefix>/<name>/…` resources, listed with `skills/list` and `skills/get`
   * (and browsable with `resources/directory/read` when `directoryRead`). A folder holding a
   * SKILL.md is one skill; otherwise each sub-folder holding one is. Checked now: names, front
   * matter, sizes, and no file from outside the folder.
   */
  skills(source: SkillSource | readonly SkillSource[], options?: SkillsOptions): this {
    const checked = checkOptions(options);
    const directoryRead = checked.options.directoryRead === true;
    if (this.#skills !== undefined && checked.options.directoryRead !== undefined && this.#skills.directoryRead !== directoryRead) {
      throw new RegistrationError(`server.skills(): directoryRead is one setting per server (the first server.skills() call set it to ${this.#skills.directoryRead}); pass the same value or leave it out`);
    }
    const catalog = this.#skills ?? new SkillCatalog(this.resources, directoryRead, this.logger);
    catalog.add(Array.isArray(source) ? (source as readonly SkillSource[]) : [source as SkillSource], checked.options, checked.limits);
    if (this.#skills === undefined) {
      this.#skills = catalog;
      this.#extensions.declare(SKILLS_EXTENSION, directoryRead ? { directoryRead: true } : {});
      this.#scope.skills = catalog;
    }
    return this;
  }

  /** Whether `extension(id)` was declared (by you, or by the feature that needs it). */
  hasExtension(id: string): boolean {
    return this.#extensions.has(id);
  }

  /** Adds a middleware around every request, or around one method's requests. */
  use(fn: MiddlewareFn): this;
  use<M extends string>(method: M, fn: MiddlewareFn<M>): this;
  use(methodOrFn: string | MiddlewareFn, fn?: MiddlewareFn): this {
    if (typeof methodOrFn === 'function') this.#middleware.push({ method: undefined, fn: methodOrFn });
    else if (fn) this.#middleware.push({ method: methodOrFn, fn: fn });
    return this;
  }

  /** The revisions this server accepts (`protocolVersions`, default all it knows). */
  get protocolVersions(): readonly string[] {
    return this.config.protocolVersions ?? SUPPORTED_VERSIONS;
  }

  /** Most messages in one JSON-RPC batch (`limits.maxBatchSize`, default 100). */
  get maxBatchSize(): number {
    return this.#scope.maxBatchSize;
  }

  /** True when `requestState` is signed with configured keys that other instances can share. */
  hasSharedStateKey(): boolean {
    return hasSharedStateKey(this.config.requestState);
  }

  /** Opens a protocol connection (transports call this; one per stdio process or HTTP session). */
  openConnection(options: ConnectionOptions = {}): McpConnection {
    const connection = new McpProtocolHandler(this.#scope, options, { onClose: this.#release, managed: true });
    this.#connections.add(connection);
    const sessionId = connection.sessionId;
    if (sessionId !== undefined) this.#sessionConnections.set(sessionId, (this.#sessionConnections.get(sessionId) ?? 0) + 1);
    return connection;
  }

  /**
   * Continues a legacy session on this server from its record (`connection.record`,
   * or what `onRecordChange` saved), e.g. on another instance behind a load
   * balancer: same revision, client capabilities, log level and subscriptions.
   * The record is checked first; a TypeError names what is wrong.
   */
  restoreConnection(record: SessionRecord, options: Omit<ConnectionOptions, 'record' | 'stateless'> = {}): McpConnection {
    return this.openConnection({ ...options, record: parseSessionRecord(record) });
  }

  /** The scopes a request needs (the method table's `scopes` fact: those its tool, prompt or resource was registered with); HTTP `auth` checks them. */
  scopesFor(method: string, params: unknown): readonly string[] | undefined {
    const entry = methodTable[method];
    if (entry?.kind !== 'request' || entry.scopes === undefined || !isPlainObject(params)) return undefined;
    return entry.scopes(this.#scope, params);
  }

  /** Serves this server over a transport (several may be attached at once). */
  async connect(transport: McpTransport): Promise<void> {
    const connection = this.openConnection({ send: (message) => transport.send(message), transport: transport.name }) as McpProtocolHandler;
    this.#attached.push({ transport, connection });
    transport.onclose = () => {
      connection.close('Transport closed');
      const index = this.#attached.findIndex((a) => a.transport === transport);
      if (index >= 0) this.#attached.splice(index, 1);
    };
    await transport.start(
      async (message) => {
        let response: HandleResult;
        try {
          response = await connection.handleMessage(message);
        } catch (error) {
          // handleMessage answers every failure itself; if it ever throws, this request still gets an answer.
          this.config.logger?.error?.('mcpkit: handling a message failed', error);
          response = internalErrorFor(message);
        }
        if (response !== undefined) await transport.send(response);
      },
      async (error) => {
        // -32700 is for input that is not JSON (or a line too long to read); other transport failures are only logged.
        if (error instanceof InvalidJsonError || error instanceof LineTooLongError) {
          await transport.send(parseErrorResponse(error.message));
          return;
        }
        this.config.logger?.error?.('mcpkit: transport error', error);
      },
    );
    this.#started = true;
  }

  isStarted(): boolean {
    return this.#started;
  }

  /** Starts the configured transport (if any). */
  async start(): Promise<void> {
    if (this.#started) return;
    if (this.config.transport) await this.connect(this.config.transport);
    this.#started = true;
  }

  /** Closes every transport and connection. In-flight requests are aborted. */
  async stop(): Promise<void> {
    const attached = this.#attached.splice(0);
    await Promise.all(attached.map(async ({ transport, connection }) => {
      transport.onclose = undefined;
      await transport.close();
      connection.close('Server stopped');
    }));
    for (const connection of [...this.#connections]) connection.close('Server stopped');
    this.#skills?.close();
    this.#started = false;
  }

  /** Tells subscribers that a resource's content changed (`notifications/resources/updated`), here and where this server is mounted. */
  async notifyResourceUpdated(uri: string): Promise<void> {
    this.#changes.emit({ type: 'resource_updated', uri });
    await this.#bus.publish({ type: 'resource_updated', uri });
  }

  /**
   * Serves what `provider` holds after this server's own registries and the
   * providers added before it (docs/composition.md): its lists are merged into
   * `tools/list` & co., its names and URIs answered, its change events relayed.
   * A name an earlier source already serves stays theirs (a warning is logged).
   */
  provide(provider: McpProvider<RequestContext>): McpProvided {
    if (typeof provider !== 'object' || provider === null) throw new RegistrationError('server.provide() needs a provider object (McpProvider: listTools, findTool, …)');
    const catalog = this.#catalog();
    catalog.add(provider);
    const stop = provider.onChange?.((change) => {
      if (change.type === 'resource_updated') {
        this.#changes.emit(change);
        void Promise.resolve(this.#bus.publish(change.to === undefined ? { type: 'resource_updated', uri: change.uri } : { type: 'resource_updated', uri: change.uri, to: change.to })).catch((error: unknown) => this.logger.error?.('mcpkit: publishing resources/updated on the notification bus failed', error));
        return;
      }
      catalog.changed();
      this.#listChanged(change.list);
    });
    for (const list of ['tools', 'resources', 'prompts'] as const) this.#listChanged(list);
    let removed = false;
    return {
      remove: () => {
        if (removed) return;
        removed = true;
        stop?.();
        catalog.remove(provider);
        for (const list of ['tools', 'resources', 'prompts'] as const) this.#listChanged(list);
      },
    };
  }

  /**
   * Serves `child` under a namespace, live: tools and prompts as
   * `<namespace>_<name>`, resources and templates as `<namespace>+<uri>`
   * (docs/composition.md). The child's validation, middleware and change
   * events apply; a name both sides serve now is refused here.
   */
  mount(child: McpServer | McpProvider<RequestContext>, options: McpMountOptions): McpProvided {
    if (child === this) throw new RegistrationError('server.mount(): a server cannot be mounted in itself');
    const source = child instanceof McpServer ? child.asProvider() : child;
    const { provider, naming } = mountProvider({ served: (kind) => this.#served(kind), namings: this.#namings }, source, options);
    this.#namings.set(naming.namespace, naming);
    const provided = this.provide(provider);
    return {
      remove: () => {
        this.#namings.delete(naming.namespace);
        provided.remove();
      },
    };
  }

  /** This server as a provider (its registries, then its providers), run as it runs them: what `mount` namespaces. */
  asProvider(): McpProvider<RequestContext> {
    return (this.#asProvider ??= serverProvider({
      label: `server "${this.config.name}"`,
      tools: this.tools,
      resources: this.resources,
      prompts: this.prompts,
      middleware: this.#middleware,
      catalog: () => this.#scope.catalog,
      onChange: (listener) => this.#changes.on(listener),
    }));
  }

  #catalog(): ProviderCatalog<RequestContext> {
    let catalog = this.#scope.catalog;
    if (catalog === undefined) {
      catalog = this.#scope.catalog = new ProviderCatalog<RequestContext>({ tools: this.tools, resources: this.resources, prompts: this.prompts });
      catalog.onListError = (provider, kind, error) => this.logger.error?.(`mcpkit: listing ${kind} of ${provider.label ?? 'a provider'} failed; it is left out of the list`, error);
    }
    return catalog;
  }

  /** Names and URIs served now, with who serves them (for mount-time conflicts). */
  #served(kind: McpProviderListKind): Map<string, string> {
    const served = new Map<string, string>();
    const key = (item: object): string => String((item as Record<string, unknown>)[kind === 'resources' ? 'uri' : kind === 'resourceTemplates' ? 'uriTemplate' : 'name']);
    const own = kind === 'tools' ? this.tools.list() : kind === 'resources' ? this.resources.list() : kind === 'resourceTemplates' ? this.resources.templates.list() : this.prompts.list();
    for (const item of own) served.set(key(item), 'this server');
    for (const provider of this.#scope.catalog?.providers ?? []) {
      const list = listedNow(provider, kind);
      if (list === undefined) continue;
      for (const item of list as readonly object[]) if (!served.has(key(item))) served.set(key(item), provider.label ?? 'a provider');
    }
    return served;
  }

  /** A list changed into a conflict: the earlier source keeps the name (as listed and called); logged once per name. */
  #warnShadowed(list: McpProviderList): void {
    const catalog = this.#scope.catalog;
    if (catalog === undefined) return;
    for (const s of shadowedIn(catalog, KINDS_OF[list], { tools: this.tools, resources: this.resources, prompts: this.prompts })) {
      const id = `${s.kind} ${s.key} ${s.hidden}`;
      if (this.#warned.has(id)) continue;
      this.#warned.add(id);
      this.logger.warn?.(`mcpkit: ${s.kind} "${s.key}" is served by both ${s.kept} and ${s.hidden}; ${s.kept} keeps it (the one added first), ${s.hidden}'s is hidden`);
    }
  }

  /** Called when a client says its roots changed (`notifications/roots/list_changed`). */
  onRootsListChanged(listener: (info: { sessionId: string | undefined }) => void): () => void {
    this.#rootsListeners.add(listener);
    return () => this.#rootsListeners.delete(listener);
  }

  /** Called when a session's last connection on this server closes (ended, expired, or the server stopped): what a gateway keeps per session ends with it. */
  onSessionClosed(listener: (info: { sessionId: string }) => void): () => void {
    this.#sessionListeners.add(listener);
    return () => this.#sessionListeners.delete(listener);
  }

  /** The server's logger (`config.logger`, else stderr): transports report failures no request can carry here. */
  get logger(): Logger {
    return this.config.logger ?? stderrLogger;
  }

  /** Open connections (stdio processes, HTTP sessions, the stateless endpoint). */
  get connectionCount(): number {
    return this.#connections.size;
  }

  /** Several changes in one tick send one `list_changed` per list. */
  #listChanged(list: 'tools' | 'resources' | 'prompts'): void {
    // A parent this server is mounted in (it debounces on its side).
    this.#changes.emit({ type: 'list_changed', list });
    if (this.#scope.catalog !== undefined) this.#warnShadowed(list);
    // Nobody to tell: registrations made while setting up the server.
    if (this.#connections.size === 0 && this.config.bus === undefined) return;
    this.#pendingLists.add(list);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setTimeout(() => {
      this.#flushScheduled = false;
      const lists = [...this.#pendingLists];
      this.#pendingLists.clear();
      for (const l of lists) {
        void Promise.resolve(this.#bus.publish({ type: 'list_changed', list: l })).catch((error: unknown) => this.logger.error?.(`mcpkit: publishing ${l}/list_changed on the notification bus failed`, error));
      }
    }, 0);
  }
}

/** -32603 for a request whose handling failed outside the protocol handler; nothing for a notification. */
function internalErrorFor(message: unknown): JsonRpcErrorResponse | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message) || !('id' in message)) return undefined;
  const id = message.id;
  return errorResponseFrom(isValidId(id) ? id : null, undefined);
}
