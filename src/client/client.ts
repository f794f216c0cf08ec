/**
 * The MCP client: one API for both eras. Legacy revisions open with
 * `initialize` and keep a session; 2026-07-28 sends the protocol version,
 * capabilities and client info in every request's `_meta`, and an
 * `InputRequiredResult` is answered with the same handlers that answer a
 * legacy server's requests, then retried (MRTR) — calling code is the same.
 */
import { streamInfo } from './abort.js';
import type { LazyAbort } from '../protocol/request/abort.js';
import { classify, isPlainObject, type JsonRpcMessage } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/errors.js';
import { McpErrorCode } from '../errors/codes.js';
import { META_SERVER_INFO } from '../protocol/wire/meta-keys.js';
import { isLegacyVersion, LATEST_LEGACY_VERSION, MODERN_VERSIONS, SUPPORTED_VERSIONS, type ProtocolVersion } from '../protocol/wire/versions.js';
import type { ClientCapabilities, CompleteResult, DiscoverResult, GetPromptResult, Implementation, InitializeResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, LoggingLevel, McpResult, McpToolResult, PromptDescription, ReadResourceResult, ResourceDescription, ResourceTemplateDescription, ServerCapabilities, ToolDescription } from '../wire-types/index.js';
import type { Era } from '../protocol/wire/method-facts.js';
import { compileSchema } from '../schema/index.js';
import { McpError, McpTransportError, ToolResultError } from './errors.js';
import { Listeners, type Listener } from './events.js';
import { routingHeaders } from './headers.js';
import { allPages, ListCache, ToolCatalog } from './lists.js';
import { capabilitiesOf, checkOptions, waitOptionsOf, withCursor, type CallToolOptions, type ClientOptions, type Json, type ListOptions, type RequestOptions } from './options.js';
import { observeNotification, observeRequest, tracingOutboundNotifications, tracingOutboundRequests } from './observe.js';
import { RequestMeta } from './request-meta.js';
import { RequestTable } from './requests.js';
import { ServerRequests } from './server-requests.js';
import { ClientSkills } from './skills.js';
import { ClientTasks, isTaskHandle, parseTask, TASKS_EXTENSION } from './tasks.js';
import { legacyTaskSupport, NO_LEGACY_TASKS, taskOrResult, TASKS_REVISION, type LegacyTaskSupport } from './tasks-legacy.js';
import type { ClientTransport, OutboundInfo } from './transport.js';

export type { ClientTask, TaskDefaults, TaskWaitOptions } from './tasks.js';
export type { CallToolOptions, ClientOptions, ElicitationHandler, HandlerExtra, ListOptions, RequestOptions, RootsSource, SamplingHandler, TaskStartOptions } from './options.js';

const MODERN: ProtocolVersion = MODERN_VERSIONS[0];
const NO_INFO: OutboundInfo = Object.freeze({}); // for a transport that reads no OutboundInfo (stdio)
const NO_OPTIONS: CallToolOptions = Object.freeze({}); // the default of a call without options (read only, never an object per call)

export class Client {
  #transport: ClientTransport | undefined;
  #era: Era | undefined;
  #version: ProtocolVersion | undefined;
  #server: { info?: Implementation | undefined; capabilities: ServerCapabilities; instructions?: string | undefined } = { capabilities: {} };
  #discover: DiscoverResult | undefined;
  #closed = false;
  readonly #options: ClientOptions;
  readonly #capabilities: ClientCapabilities;
  /** Each request's `_meta` (on 2026-07-28: version, capabilities, client info, log level). */
  readonly #meta: RequestMeta;
  #tasks: ClientTasks | undefined;
  readonly #clientInfo: Implementation;
  readonly #events: Listeners;
  readonly #requests: RequestTable;
  readonly #serverRequests: ServerRequests;
  readonly #tools = new ToolCatalog();
  readonly #cache = new ListCache();
  #skills: ClientSkills | undefined;

  constructor(options: ClientOptions = {}) {
    checkOptions(options);
    this.#options = options;
    this.#clientInfo = options.clientInfo ?? { name: 'mcpkit-client', version: '0.0.0' };
    this.#capabilities = capabilitiesOf(options);
    // What 2026-07-28 requests that can await a task declare: the capabilities, with the tasks extension unless `tasks: false`.
    const withTasks = options.tasks === false ? this.#capabilities : { ...this.#capabilities, extensions: { [TASKS_EXTENSION]: {}, ...this.#capabilities.extensions } };
    this.#meta = new RequestMeta(MODERN, this.#capabilities, withTasks, this.#clientInfo, options.logLevel);
    this.#events = new Listeners(options.onWarning);
    this.#requests = new RequestTable(options.maxPendingRequests ?? 1024, (run) => this.#events.safely(run), {
      message: (out, id, progressToken) => {
        out.onId?.(id);
        return { jsonrpc: '2.0', id, method: out.method, params: this.#meta.params(out.params, out.options.meta, progressToken, this.#era === 'modern', out.tasks) };
      },
      info: (out, message, stream) => (out.transport.readsOutboundInfo === false ? NO_INFO : this.#info(out.method, message.params as Json, stream)),
      cancel: (out, id, reason) => void (out.method !== 'initialize' && this.notify('notifications/cancelled', { requestId: id, reason }).catch(() => undefined)),
    });
    this.#serverRequests = new ServerRequests(options, (message, method) => this.#reply(message, method));
  }

  /** `'legacy'` or `'modern'` once connected. */
  get era(): Era | undefined {
    return this.#era;
  }

  get protocolVersion(): ProtocolVersion | undefined {
    return this.#version;
  }

  get serverInfo(): Implementation | undefined {
    return this.#server.info;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.#server.capabilities;
  }

  get instructions(): string | undefined {
    return this.#server.instructions;
  }

  /** What the client declares (derived from its handlers). */
  get capabilities(): ClientCapabilities {
    return this.#capabilities;
  }

  /** The `server/discover` answer (2026-07-28): give it back as `discover` to reconnect without a round trip. */
  get discoverResult(): DiscoverResult | undefined {
    return this.#discover;
  }

  /**
   * Starts the transport and negotiates the era. Rejects with `McpError`
   * (the server refused) or `McpTransportError` (it could not be reached).
   */
  async connect(transport: ClientTransport): Promise<void> {
    if (this.#transport !== undefined) throw new Error('This client is already connected; create another Client for another connection');
    this.#transport = transport;
    await transport.start({ message: (message) => this.#receive(message), closed: (error) => this.#lost(error) });
    const wanted = this.#options.protocolVersion ?? 'auto';
    try {
      if (wanted === MODERN || wanted === 'auto') {
        const modern = await this.#tryDiscover(wanted === 'auto');
        if (modern) return;
      }
      await this.#initialize(wanted === 'auto' || wanted === MODERN ? LATEST_LEGACY_VERSION : wanted);
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** True when the server speaks 2026-07-28; false (auto only) when it should be asked with `initialize`. */
  async #tryDiscover(auto: boolean): Promise<boolean> {
    const cached = this.#options.discover;
    if (cached !== undefined && cached.supportedVersions.includes(MODERN)) {
      this.#modern(cached);
      return true;
    }
    this.#era = 'modern';
    this.#version = MODERN;
    try {
      const result = (await this.request('server/discover', {})) as DiscoverResult;
      if (Array.isArray(result.supportedVersions) && result.supportedVersions.includes(MODERN)) {
        this.#modern(result);
        return true;
      }
      if (!auto) throw new McpError('server/discover', ErrorCode.InternalError, `The server does not speak ${MODERN} (supportedVersions: ${JSON.stringify(result.supportedVersions)})`);
    } catch (error) {
      // The signals of a legacy-only server: a JSON-RPC error, or an HTTP refusal that is not about credentials.
      const legacy = error instanceof McpError || (error instanceof McpTransportError && (error.kind === 'http' || error.kind === 'protocol'));
      if (!auto || !legacy) throw error;
    }
    this.#era = undefined;
    this.#version = undefined;
    return false;
  }

  #modern(result: DiscoverResult): void {
    this.#era = 'modern';
    this.#version = MODERN;
    this.#discover = result;
    // 2026-07-28 names the server in the result's _meta; earlier drafts put it beside the capabilities.
    const info = result.serverInfo ?? (isPlainObject(result._meta) ? (result._meta[META_SERVER_INFO] as Implementation | undefined) : undefined);
    this.#server = { info, capabilities: isPlainObject(result.capabilities) ? result.capabilities : {}, instructions: result.instructions };
  }

  async #initialize(version: ProtocolVersion): Promise<void> {
    this.#era = 'legacy';
    const result = (await this.request('initialize', { protocolVersion: version, capabilities: this.#capabilities, clientInfo: this.#clientInfo })) as InitializeResult;
    const negotiated = result.protocolVersion;
    if (!isLegacyVersion(negotiated)) {
      throw new McpError('initialize', ErrorCode.InternalError, `The server answered initialize with protocol version ${JSON.stringify(negotiated)}, which this client does not speak (it speaks ${SUPPORTED_VERSIONS.join(', ')})`);
    }
    this.#version = negotiated;
    this.#server = { info: result.serverInfo, capabilities: isPlainObject(result.capabilities) ? result.capabilities : {}, instructions: result.instructions };
    await this.notify('notifications/initialized');
    this.#transport?.negotiated?.(negotiated);
    const level = this.#meta.logLevel;
    if (level !== undefined && this.#server.capabilities.logging !== undefined) await this.setLoggingLevel(level);
  }

  /** Ends the connection: pending requests reject with `McpTransportError('closed')`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#requests.failAll(new McpTransportError('closed', 'The client was closed'));
    this.#serverRequests.abortAll();
    await this.#transport?.close().catch(() => undefined);
  }

  /**
   * Listens to a server notification by method (`notifications/tools/list_changed`,
   * `notifications/resources/updated`, `notifications/message`, …), `'*'` for
   * every notification (params carry `method`), `'warning'` or `'close'`.
   * Returns the function that stops listening.
   */
  on(event: string, listener: Listener): () => void {
    return this.#events.on(event, listener);
  }

  /** The skills extension (SEP-2640): `list()`, `get(uri)`, `fetch(entry | uri | name)`, verified, nothing prefetched. */
  get skills(): ClientSkills {
    this.#skills ??= new ClientSkills({
      request: (method, params, options) => this.request(method, params, options),
      readResource: (uri, options) => this.readResource(uri, options),
      warn: (message) => this.#events.warn(message),
    });
    return this.#skills;
  }

  /**
   * Tasks on both eras (the 2026-07-28 extension, revision 2025-11-25's tasks): `start`
   * a tool as a task, `get`, `update` (2026-07-28), `cancel`, `list` (2025-11-25) and
   * `result` to await one. `callTool` uses it on its own.
   */
  get tasks(): ClientTasks {
    this.#tasks ??= new ClientTasks({
      request: (method, params, options) => this.#request(method, params, options ?? {}, true),
      inputs: (requests, signal) => this.#serverRequests.inputs('tasks/update', requests, signal),
      listen: (taskIds, onTask, signal) => {
        const off = this.on('notifications/tasks', onTask);
        signal.addEventListener('abort', off, { once: true });
        this.listen({ taskIds }, { signal }).catch(() => undefined); // polling goes on without it
      },
      legacy: () => this.#legacyTasks(),
      tool: (name) => this.#tools.get(name)?.tool,
      watch: (onTask) => this.on('notifications/tasks/status', onTask),
      defaults: this.#options.tasks === false ? {} : (this.#options.tasks ?? {}),
    });
    return this.#tasks;
  }

  /** On a legacy session: what the server's 2025-11-25 `tasks` capability allows (nothing before that revision). */
  #legacyTasks(): LegacyTaskSupport | undefined {
    if (this.#era !== 'legacy') return undefined;
    return this.#version === TASKS_REVISION ? legacyTaskSupport(this.#server.capabilities) : NO_LEGACY_TASKS;
  }

  // ---- what a server offers --------------------------------------------------------------

  ping(options?: RequestOptions): Promise<McpResult> {
    return this.request('ping', {}, options);
  }

  async listTools(options: ListOptions = {}): Promise<ListToolsResult> {
    const page = (await this.#list('tools/list', options)) as ListToolsResult;
    const warn = (message: string): void => this.#events.warn(message);
    const tools = Array.isArray(page.tools) ? page.tools.filter((tool) => this.#tools.keep(tool, this.#era, warn)) : [];
    return { ...page, tools };
  }

  /** Every tool, across pages. */
  tools(options?: RequestOptions): AsyncGenerator<ToolDescription> {
    return allPages<ToolDescription>((cursor) => this.listTools(withCursor(options, cursor)), 'tools');
  }

  async listResources(options: ListOptions = {}): Promise<ListResourcesResult> {
    return (await this.#list('resources/list', options)) as ListResourcesResult;
  }

  resources(options?: RequestOptions): AsyncGenerator<ResourceDescription> {
    return allPages<ResourceDescription>((cursor) => this.listResources(withCursor(options, cursor)), 'resources');
  }

  async listResourceTemplates(options: ListOptions = {}): Promise<ListResourceTemplatesResult> {
    return (await this.#list('resources/templates/list', options)) as ListResourceTemplatesResult;
  }

  resourceTemplates(options?: RequestOptions): AsyncGenerator<ResourceTemplateDescription> {
    return allPages<ResourceTemplateDescription>((cursor) => this.listResourceTemplates(withCursor(options, cursor)), 'resourceTemplates');
  }

  async listPrompts(options: ListOptions = {}): Promise<ListPromptsResult> {
    return (await this.#list('prompts/list', options)) as ListPromptsResult;
  }

  prompts(options?: RequestOptions): AsyncGenerator<PromptDescription> {
    return allPages<PromptDescription>((cursor) => this.listPrompts(withCursor(options, cursor)), 'prompts');
  }

  /**
   * Calls a tool. An `isError` result is returned (the model should see it),
   * unless `throwOnError`. `structuredContent` is checked against the
   * `outputSchema` of the listed tool.
   */
  async callTool(name: string, args?: Json, options: CallToolOptions = NO_OPTIONS): Promise<McpToolResult> {
    const task = options.task;
    const params: Json = args === undefined ? { name } : { name, arguments: args };
    // 2025-11-25: the client asks for the task (a required tool, or the caller's create).
    const legacyTask = this.tasks.callsAsTask(name, task?.create === true);
    if (legacyTask) params['task'] = task?.ttlMs === undefined ? {} : { ttl: task.ttlMs };
    const answer = await this.#request('tools/call', params, options, true);
    let result = answer as unknown as McpToolResult;
    // A tool that runs as a task: awaited here, so calling code is the same either way.
    const created = legacyTask ? taskOrResult(answer) : undefined;
    if (created !== undefined) result = await this.tasks.result(created, waitOptionsOf(options));
    else if (this.#era === 'modern' && isTaskHandle(result)) result = await this.tasks.result(parseTask(result, result.taskId, 'tools/call'), waitOptionsOf(options));
    if (result.isError === true) {
      if (options.throwOnError === true) throw new ToolResultError(name, result);
      return result;
    }
    const outputSchema = this.#tools.get(name)?.tool.outputSchema;
    if (this.#options.validateStructuredContent !== false && isPlainObject(outputSchema)) {
      if (result.structuredContent === undefined) {
        throw new McpError('tools/call', ErrorCode.InvalidParams, `Tool "${name}" declares an outputSchema but returned no structuredContent`);
      }
      const checked = await compileSchema(outputSchema).validate(result.structuredContent);
      if (!checked.ok) throw new McpError('tools/call', ErrorCode.InvalidParams, `Tool "${name}" returned structuredContent that does not match its outputSchema: ${checked.message}`, { issues: checked.issues });
    }
    return result;
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.request('resources/read', { uri }, options) as Promise<ReadResourceResult>;
  }

  getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): Promise<GetPromptResult> {
    return this.request('prompts/get', args === undefined ? { name } : { name, arguments: args }, options) as Promise<GetPromptResult>;
  }

  /** `completion/complete` for a prompt argument (`ref/prompt`) or a template variable (`ref/resource`). */
  complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: { arguments: Record<string, string> },
    options?: RequestOptions,
  ): Promise<CompleteResult> {
    return this.request('completion/complete', context === undefined ? { ref, argument } : { ref, argument, context }, options) as Promise<CompleteResult>;
  }

  /** Legacy: `logging/setLevel` for the session. 2026-07-28: the level rides in each request's `_meta`. */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    if (this.#era === 'modern') {
      this.#meta.logLevel = level;
      return;
    }
    await this.request('logging/setLevel', { level });
  }

  /** Legacy `resources/subscribe`; `notifications/resources/updated` then arrive as events. */
  async subscribeResource(uri: string): Promise<void> {
    await this.request('resources/subscribe', { uri });
  }

  async unsubscribeResource(uri: string): Promise<void> {
    await this.request('resources/unsubscribe', { uri });
  }

  /**
   * 2026-07-28 `subscriptions/listen`: a long-lived request whose notifications
   * arrive as events until `signal` aborts it (or the server ends it).
   */
  listen(filter: { toolsListChanged?: boolean; promptsListChanged?: boolean; resourcesListChanged?: boolean; resourceSubscriptions?: string[]; taskIds?: string[] }, options: RequestOptions = {}): Promise<McpResult> {
    return this.#request('subscriptions/listen', { notifications: filter }, { timeoutMs: 0, ...options }, filter.taskIds !== undefined).catch((error: unknown) => {
      if (options.signal?.aborted === true) return {};
      throw error;
    });
  }

  /** Tells the server the roots changed (`notifications/roots/list_changed`, legacy sessions). */
  async rootsChanged(): Promise<void> {
    if (this.#era === 'legacy') await this.notify('notifications/roots/list_changed');
  }

  // ---- the protocol ----------------------------------------------------------------------

  /**
   * Any request. On 2026-07-28 `_meta` carries the protocol version,
   * capabilities and client info, and input-required rounds are answered with
   * the handlers and retried until the result is complete.
   */
  request(method: string, params: Json = {}, options: RequestOptions = NO_OPTIONS): Promise<McpResult> {
    return this.#request(method, params, options, false);
  }

  /** `tasks`: declare the tasks extension (callTool and client.tasks, which can await a task handle; a raw request cannot). */
  #request(method: string, params: Json, options: RequestOptions, tasks: boolean): Promise<McpResult> {
    // A legacy session has no input rounds and no version retry: one request, no async frame of its own.
    if (this.#era === 'legacy') return this.#requestOnce(method, params, options, tasks);
    return this.#rounds(method, params, options, tasks);
  }

  /** 2026-07-28: input-required rounds (MRTR) and the one retry on an unsupported protocol version. */
  async #rounds(method: string, params: Json, options: RequestOptions, tasks: boolean): Promise<McpResult> {
    const rounds = this.#options.maxInputRounds ?? 10;
    let current = params;
    let versionRetried = false;
    for (let round = 0; ; round++) {
      let result: Json;
      try {
        result = await this.#requestOnce(method, current, options, tasks);
      } catch (error) {
        // -32022 naming a revision we speak (SEP-2575): retry once with it.
        if (!versionRetried && error instanceof McpError && error.code === McpErrorCode.UnsupportedProtocolVersion && this.#era === 'modern') {
          const supported = isPlainObject(error.data) && Array.isArray(error.data['supported']) ? error.data['supported'] : [];
          if (supported.includes(MODERN)) {
            versionRetried = true;
            round--;
            continue;
          }
        }
        throw error;
      }
      if (this.#era !== 'modern' || result['resultType'] !== 'input_required') return result;
      if (round + 1 >= rounds) throw new McpError(method, ErrorCode.InternalError, `${method}: the server still asked for input after ${rounds} rounds (maxInputRounds)`);
      const inputResponses = await this.#serverRequests.inputs(method, result['inputRequests'], options.signal);
      const { inputResponses: _answers, requestState: _state, ...rest } = current;
      current = { ...rest, inputResponses };
      if (typeof result['requestState'] === 'string') current['requestState'] = result['requestState'];
    }
  }

  /** Sends a notification. */
  async notify(method: string, params?: Json): Promise<void> {
    const transport = this.#live();
    if (tracingOutboundNotifications()) return observeNotification(method, params, this.#connected(transport), (traced) => this.#notifyOnce(transport, method, traced));
    return this.#notifyOnce(transport, method, params);
  }

  #notifyOnce(transport: ClientTransport, method: string, params: Json | undefined): Promise<void> {
    const message: JsonRpcMessage = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return transport.send(message, this.#info(method, params, undefined));
  }

  #connected = (transport: ClientTransport): { transport: ClientTransport; era: Era | undefined; protocolVersion: string | undefined } => ({ transport, era: this.#era, protocolVersion: this.#version });

  #live(): ClientTransport {
    if (this.#closed) throw new McpTransportError('closed', 'The client is closed');
    if (this.#transport === undefined) throw new McpTransportError('closed', 'The client is not connected: call connect(transport) first');
    return this.#transport;
  }

  #info(method: string, params: Json | undefined, stream: LazyAbort | undefined): OutboundInfo {
    // The stream's AbortSignal is made only for a transport that reads `signal` (mcpkit's read `abort`).
    const info: OutboundInfo = stream === undefined ? {} : streamInfo(stream);
    if (this.#version !== undefined) info.protocolVersion = this.#version;
    if (this.#era === 'modern') {
      const tool = method === 'tools/call' && typeof params?.['name'] === 'string' ? this.#tools.get(params['name'])?.headers : undefined;
      info.headers = routingHeaders(method, params, tool);
    }
    // Ends the request's own exchange when it is abandoned: on 2026-07-28 that is the cancellation; on a
    // legacy session notifications/cancelled is, and the exchange would otherwise stay open until the server answers.
    return info;
  }

  /** Not async: an async frame made a promise per call and resolved it with the table's (a thenable job more); what throws still rejects. */
  #requestOnce(method: string, params: Json, options: RequestOptions, tasks: boolean): Promise<Json> {
    try {
      const transport = this.#live();
      if (!tracingOutboundRequests()) return this.#send(transport, method, params, options, tasks, undefined);
      return observeRequest(method, params, options.meta, this.#connected(transport), (traced, message) => this.#send(transport, method, traced, options, tasks, (id) => (message.id = id)));
    } catch (error) {
      return Promise.reject(error); // eslint-disable-line @typescript-eslint/prefer-promise-reject-errors -- what #live or the tracer threw, as it was
    }
  }

  /** `onId`: an observer learns the request's JSON-RPC id. */
  #send(transport: ClientTransport, method: string, params: Json, options: RequestOptions, tasks: boolean, onId: ((id: number) => void) | undefined): Promise<Json> {
    // 2026-07-28 over HTTP cancels by closing the request's stream; everything else by notifications/cancelled.
    return this.#requests.start({ method, params, options, timeoutMs: options.timeoutMs ?? this.#options.requestTimeoutMs ?? 60_000, streamed: transport.readsOutboundInfo !== false, tasks, transport, onId });
  }

  async #list(method: string, options: ListOptions): Promise<Json> {
    const params: Json = options.cursor === undefined ? {} : { cursor: options.cursor };
    const cacheable = options.cursor === undefined && options.cache !== false && this.#era === 'modern';
    const hit = cacheable ? this.#cache.get(method) : undefined;
    if (hit !== undefined) return hit;
    const result = await this.request(method, params, options);
    if (cacheable) this.#cache.keep(method, result);
    return result;
  }

  // ---- what the server sends -------------------------------------------------------------

  #receive(raw: unknown): void {
    if (isPlainObject(raw) && typeof raw['invalid'] === 'string') return this.#events.warn(`The server sent ${raw['invalid']}`);
    const classified = classify(raw);
    switch (classified.kind) {
      case 'invalid':
        return this.#events.warn(`The server sent a message that is not JSON-RPC (${classified.reason})`);
      case 'response': {
        const message = classified.message;
        const failure = isPlainObject(raw) ? raw['transportFailure'] : false, transportFailure = failure === true ? 'unreachable' : failure === 'protocol' ? failure : false;
        if (!this.#requests.settle(message.id, message, transportFailure)) this.#events.warn(`The server answered an unknown request id ${JSON.stringify(message.id)}`);
        return;
      }
      case 'notification':
        return this.#notification(classified.message.method, isPlainObject(classified.message.params) ? classified.message.params : {});
      case 'request':
        return this.#serverRequests.handle(classified.message);
    }
  }

  #notification(method: string, params: Json): void {
    if (method === 'notifications/progress') this.#requests.progress(params);
    else if (method === 'notifications/cancelled') this.#serverRequests.cancelled(params['requestId'], params['reason']);
    this.#cache.notified(method);
    this.#events.emit(method, params);
    this.#events.emit('*', { ...params, method });
  }

  #reply(message: JsonRpcMessage, method: string): void {
    if (this.#closed) return;
    this.#transport?.send(message, this.#info(method, undefined, undefined)).catch(() => undefined); // gone: nobody to answer
  }

  #lost(error: Error | undefined): void {
    const reason = error ?? new McpTransportError('closed', 'The connection closed');
    this.#requests.failAll(reason);
    if (!this.#closed) this.#events.emit('close', { message: reason.message });
    this.#closed = true;
  }
}
