/**
 * The MCP client: one API for both eras. Legacy revisions open with
 * `initialize` and keep a session; 2026-07-28 sends the protocol version,
 * capabilities and client info in every request's `_meta`, and an
 * `InputRequiredResult` is answered with the same handlers that answer a
 * legacy server's requests, then retried (MRTR) — calling code is the same.
 */
import { classify, isPlainObject, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/errors.js';
import { McpErrorCode } from '../errors/codes.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION, META_SERVER_INFO } from '../protocol/wire/meta-keys.js';
import { isLegacyVersion, LATEST_LEGACY_VERSION, MODERN_VERSIONS, SUPPORTED_VERSIONS, type ProtocolVersion } from '../protocol/wire/versions.js';
import type { ClientCapabilities, CreateMessageParams, CreateMessageResult, ElicitFormParams, ElicitResult, ElicitUrlParams, Implementation, LoggingLevel, Root, ServerCapabilities } from '../protocol/wire/types.js';
import type { Era } from '../protocol/wire/method-facts.js';
import { headerParamsOf, type HeaderParam } from '../registries/header-params.js';
import { compileSchema } from '../schema/index.js';
import { completeElicitation } from './elicitation.js';
import { McpError, McpTransportError, ToolResultError } from './errors.js';
import { routingHeaders } from './headers.js';
import type { ClientTransport, OutboundInfo } from './transport.js';
import type {
  CallToolResult,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  InitializeResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
  Result,
  WirePrompt,
  WireResource,
  WireResourceTemplate,
  WireTool,
} from './types.js';

type Json = Record<string, unknown>;
const MODERN: ProtocolVersion = MODERN_VERSIONS[0];

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
}

export interface RequestOptions {
  signal?: AbortSignal;
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
}

export interface ListOptions extends RequestOptions {
  cursor?: string;
  /** Use a 2026-07-28 cached first page while its `ttlMs` lasts (default true). */
  cache?: boolean;
}

interface Pending {
  method: string;
  resolve(result: Json): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  restart?: (() => void) | undefined;
  onProgress?: RequestOptions['onProgress'];
  progressToken?: string | number | undefined;
}

type Listener = (params: Json) => void;

const LIST_CHANGED: Record<string, string[]> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

export class Client {
  #transport: ClientTransport | undefined;
  #era: Era | undefined;
  #version: ProtocolVersion | undefined;
  #server: { info?: Implementation | undefined; capabilities: ServerCapabilities; instructions?: string | undefined } = { capabilities: {} };
  #discover: DiscoverResult | undefined;
  #nextId = 1;
  #closed = false;
  readonly #pending = new Map<JsonRpcId, Pending>();
  readonly #progress = new Map<string | number, Pending>();
  readonly #inbound = new Map<JsonRpcId, AbortController>();
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #tools = new Map<string, { tool: WireTool; headers: readonly HeaderParam[] }>();
  readonly #cache = new Map<string, { result: Json; expires: number }>();
  readonly #options: ClientOptions;
  readonly #capabilities: ClientCapabilities;
  readonly #clientInfo: Implementation;

  constructor(options: ClientOptions = {}) {
    checkOptions(options);
    this.#options = options;
    this.#clientInfo = options.clientInfo ?? { name: 'mcpkit-client', version: '0.0.0' };
    this.#capabilities = capabilitiesOf(options);
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
    if (this.#options.logLevel !== undefined && this.#server.capabilities.logging !== undefined) await this.setLoggingLevel(this.#options.logLevel);
  }

  /** Ends the connection: pending requests reject with `McpTransportError('closed')`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#failAll(new McpTransportError('closed', 'The client was closed'));
    for (const controller of this.#inbound.values()) controller.abort();
    this.#inbound.clear();
    await this.#transport?.close().catch(() => undefined);
  }

  /**
   * Listens to a server notification by method (`notifications/tools/list_changed`,
   * `notifications/resources/updated`, `notifications/message`, …), `'*'` for
   * every notification (params carry `method`), `'warning'` or `'close'`.
   * Returns the function that stops listening.
   */
  on(event: string, listener: Listener): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  // ---- what a server offers --------------------------------------------------------------

  ping(options?: RequestOptions): Promise<Result> {
    return this.request('ping', {}, options);
  }

  async listTools(options: ListOptions = {}): Promise<ListToolsResult> {
    const page = (await this.#list('tools/list', options)) as ListToolsResult;
    const tools = Array.isArray(page.tools) ? page.tools.filter((tool) => this.#keepTool(tool)) : [];
    return { ...page, tools };
  }

  /** Every tool, across pages. */
  tools(options?: RequestOptions): AsyncGenerator<WireTool> {
    return this.#all<WireTool>((cursor) => this.listTools({ ...options, ...(cursor === undefined ? {} : { cursor }) }), 'tools');
  }

  async listResources(options: ListOptions = {}): Promise<ListResourcesResult> {
    return (await this.#list('resources/list', options)) as ListResourcesResult;
  }

  resources(options?: RequestOptions): AsyncGenerator<WireResource> {
    return this.#all<WireResource>((cursor) => this.listResources({ ...options, ...(cursor === undefined ? {} : { cursor }) }), 'resources');
  }

  async listResourceTemplates(options: ListOptions = {}): Promise<ListResourceTemplatesResult> {
    return (await this.#list('resources/templates/list', options)) as ListResourceTemplatesResult;
  }

  resourceTemplates(options?: RequestOptions): AsyncGenerator<WireResourceTemplate> {
    return this.#all<WireResourceTemplate>((cursor) => this.listResourceTemplates({ ...options, ...(cursor === undefined ? {} : { cursor }) }), 'resourceTemplates');
  }

  async listPrompts(options: ListOptions = {}): Promise<ListPromptsResult> {
    return (await this.#list('prompts/list', options)) as ListPromptsResult;
  }

  prompts(options?: RequestOptions): AsyncGenerator<WirePrompt> {
    return this.#all<WirePrompt>((cursor) => this.listPrompts({ ...options, ...(cursor === undefined ? {} : { cursor }) }), 'prompts');
  }

  /**
   * Calls a tool. An `isError` result is returned (the model should see it),
   * unless `throwOnError`. `structuredContent` is checked against the
   * `outputSchema` of the listed tool.
   */
  async callTool(name: string, args?: Json, options: CallToolOptions = {}): Promise<CallToolResult> {
    const result = (await this.request('tools/call', args === undefined ? { name } : { name, arguments: args }, options)) as unknown as CallToolResult;
    if (result.isError === true) {
      if (options.throwOnError === true) throw new ToolResultError(name, result);
      return result;
    }
    const known = this.#tools.get(name);
    const outputSchema = known?.tool.outputSchema;
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
      (this.#options as { logLevel?: LoggingLevel }).logLevel = level;
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
  listen(filter: { toolsListChanged?: boolean; promptsListChanged?: boolean; resourcesListChanged?: boolean; resourceSubscriptions?: string[]; taskIds?: string[] }, options: RequestOptions = {}): Promise<Result> {
    return this.request('subscriptions/listen', { notifications: filter }, { timeoutMs: 0, ...options }).catch((error: unknown) => {
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
  async request(method: string, params: Json = {}, options: RequestOptions = {}): Promise<Result> {
    const rounds = this.#options.maxInputRounds ?? 10;
    let current = params;
    let versionRetried = false;
    for (let round = 0; ; round++) {
      let result: Json;
      try {
        result = await this.#requestOnce(method, current, options);
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
      const inputResponses = await this.#answerInputs(method, result['inputRequests'], options.signal);
      const { inputResponses: _answers, requestState: _state, ...rest } = current;
      current = { ...rest, inputResponses };
      if (typeof result['requestState'] === 'string') current['requestState'] = result['requestState'];
    }
  }

  /** Sends a notification. */
  async notify(method: string, params?: Json): Promise<void> {
    const transport = this.#live();
    const message: JsonRpcMessage = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    await transport.send(message, this.#info(method, params, undefined));
  }

  #live(): ClientTransport {
    if (this.#closed) throw new McpTransportError('closed', 'The client is closed');
    if (this.#transport === undefined) throw new McpTransportError('closed', 'The client is not connected: call connect(transport) first');
    return this.#transport;
  }

  #info(method: string, params: Json | undefined, signal: AbortSignal | undefined): OutboundInfo {
    const info: OutboundInfo = {};
    if (this.#version !== undefined) info.protocolVersion = this.#version;
    if (this.#era === 'modern') {
      const tool = method === 'tools/call' && typeof params?.['name'] === 'string' ? this.#tools.get(params['name'])?.headers : undefined;
      info.headers = routingHeaders(method, params, tool);
      if (signal !== undefined) info.signal = signal;
    }
    return info;
  }

  #withMeta(params: Json, options: RequestOptions, progressToken: string | number | undefined): Json {
    const given = isPlainObject(params['_meta']) ? params['_meta'] : undefined;
    if (this.#era !== 'modern' && options.meta === undefined && progressToken === undefined) return params;
    const meta: Json = { ...given, ...options.meta };
    if (progressToken !== undefined) meta['progressToken'] = progressToken;
    if (this.#era === 'modern') {
      meta[META_PROTOCOL_VERSION] = MODERN;
      meta[META_CLIENT_CAPABILITIES] = this.#capabilities;
      meta[META_CLIENT_INFO] = this.#clientInfo;
      if (this.#options.logLevel !== undefined) meta[META_LOG_LEVEL] = this.#options.logLevel;
    }
    return { ...params, _meta: meta };
  }

  #requestOnce(method: string, params: Json, options: RequestOptions): Promise<Json> {
    const transport = this.#live();
    const signal = options.signal;
    if (signal?.aborted === true) return Promise.reject(new McpTransportError('aborted', `${method} was aborted before it was sent`, { cause: signal.reason }));
    const max = this.#options.maxPendingRequests ?? 1024;
    if (this.#pending.size >= max) return Promise.reject(new McpTransportError('limit', `${max} requests are already in flight (maxPendingRequests)`));
    const id = this.#nextId++;
    const progressToken = options.onProgress === undefined ? undefined : id;
    const body = this.#withMeta(params, options, progressToken);
    // 2026-07-28 over HTTP cancels by closing the request's stream; everything else by notifications/cancelled.
    const streamAbort = this.#era === 'modern' ? new AbortController() : undefined;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method, params: body };
    return new Promise<Json>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.#options.requestTimeoutMs ?? 60_000;
      const cleanup = (): void => {
        if (entry.timer !== undefined) clearTimeout(entry.timer);
        this.#pending.delete(id);
        if (progressToken !== undefined) this.#progress.delete(progressToken);
        signal?.removeEventListener('abort', onAbort);
      };
      const cancel = (reason: string): void => {
        streamAbort?.abort();
        if (method !== 'initialize') this.notify('notifications/cancelled', { requestId: id, reason }).catch(() => undefined);
      };
      const onAbort = (): void => {
        cleanup();
        cancel(String(signal?.reason ?? 'aborted'));
        reject(new McpTransportError('aborted', `${method} was aborted`, { cause: signal?.reason }));
      };
      const arm = (): ReturnType<typeof setTimeout> | undefined =>
        timeoutMs > 0
          ? setTimeout(() => {
              cleanup();
              cancel(`timed out after ${timeoutMs} ms`);
              reject(new McpTransportError('timeout', `${method} did not finish within ${timeoutMs} ms`));
            }, timeoutMs)
          : undefined;
      const entry: Pending = {
        method,
        resolve: (result) => (cleanup(), resolve(result)),
        reject: (error) => (cleanup(), reject(error)),
        timer: arm(),
        onProgress: options.onProgress,
        progressToken,
      };
      if (options.resetTimeoutOnProgress === true) {
        entry.restart = () => {
          if (entry.timer !== undefined) clearTimeout(entry.timer);
          entry.timer = arm();
        };
      }
      this.#pending.set(id, entry);
      if (progressToken !== undefined) this.#progress.set(progressToken, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      transport.send(message, this.#info(method, body, streamAbort?.signal)).catch((error: unknown) => {
        if (this.#pending.get(id) === entry) entry.reject(error instanceof Error ? error : new McpTransportError('unreachable', String(error)));
      });
    });
  }

  async #list(method: string, options: ListOptions): Promise<Json> {
    const params: Json = options.cursor === undefined ? {} : { cursor: options.cursor };
    const cacheable = options.cursor === undefined && options.cache !== false && this.#era === 'modern';
    const hit = cacheable ? this.#cache.get(method) : undefined;
    if (hit !== undefined && hit.expires > Date.now()) return hit.result;
    const result = await this.request(method, params, options);
    const ttl = result['ttlMs'];
    if (cacheable && typeof ttl === 'number' && ttl > 0) this.#cache.set(method, { result, expires: Date.now() + Math.min(ttl, 86_400_000) });
    return result;
  }

  async *#all<T>(page: (cursor: string | undefined) => Promise<Result>, field: string): AsyncGenerator<T> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      const result = await page(cursor);
      const items = result[field];
      if (Array.isArray(items)) yield* items as T[];
      const next = result['nextCursor'];
      cursor = typeof next === 'string' && next !== '' ? next : undefined;
      // A server that hands back a cursor it gave before would loop forever.
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new McpError(`${field} list`, ErrorCode.InternalError, `The server repeated the cursor ${JSON.stringify(cursor.slice(0, 100))}`);
        seen.add(cursor);
      }
    } while (cursor !== undefined);
  }

  /** Remembers a listed tool (output schema, header params); on 2026-07-28 drops one whose `x-mcp-header` is invalid. */
  #keepTool(tool: unknown): tool is WireTool {
    if (!isPlainObject(tool) || typeof tool['name'] !== 'string') {
      this.#warn('tools/list returned an entry without a name; it is left out');
      return false;
    }
    const wire = tool as WireTool;
    let headers: readonly HeaderParam[] = [];
    try {
      headers = headerParamsOf(wire.name, isPlainObject(wire.inputSchema) ? wire.inputSchema : undefined);
    } catch (error) {
      if (this.#era === 'modern') {
        this.#warn(`${(error as Error).message}; the tool is left out`);
        this.#tools.delete(wire.name);
        return false;
      }
    }
    if (this.#tools.size < 10_000 || this.#tools.has(wire.name)) this.#tools.set(wire.name, { tool: wire, headers });
    return true;
  }

  // ---- what the server sends -------------------------------------------------------------

  #receive(raw: unknown): void {
    if (isPlainObject(raw) && typeof raw['invalid'] === 'string') return this.#warn(`The server sent ${raw['invalid']}`);
    const classified = classify(raw);
    switch (classified.kind) {
      case 'invalid':
        return this.#warn(`The server sent a message that is not JSON-RPC (${classified.reason})`);
      case 'response': {
        const message = classified.message;
        const pending = this.#pending.get(message.id);
        if (pending === undefined) return this.#warn(`The server answered an unknown request id ${JSON.stringify(message.id)}`);
        if ('error' in message) {
          const { code, message: text, data } = message.error;
          if (isPlainObject(raw) && raw['transportFailure'] === true) return pending.reject(new McpTransportError('unreachable', text));
          return pending.reject(new McpError(pending.method, code, String(text).slice(0, 4096), data));
        }
        if (!isPlainObject(message.result)) return pending.reject(new McpError(pending.method, ErrorCode.InternalError, 'The server answered with a result that is not an object'));
        return pending.resolve(message.result);
      }
      case 'notification':
        return this.#notification(classified.message.method, isPlainObject(classified.message.params) ? classified.message.params : {});
      case 'request':
        return this.#serverRequest(classified.message);
    }
  }

  #notification(method: string, params: Json): void {
    if (method === 'notifications/progress') {
      const token = params['progressToken'];
      const pending = typeof token === 'string' || typeof token === 'number' ? this.#progress.get(token) : undefined;
      if (pending !== undefined && typeof params['progress'] === 'number') {
        pending.restart?.();
        const progress: { progress: number; total?: number; message?: string } = { progress: params['progress'] };
        if (typeof params['total'] === 'number') progress.total = params['total'];
        if (typeof params['message'] === 'string') progress.message = params['message'];
        this.#safely(() => pending.onProgress?.(progress));
      }
    } else if (method === 'notifications/cancelled') {
      this.#inbound.get(params['requestId'] as JsonRpcId)?.abort(params['reason']);
    }
    for (const list of LIST_CHANGED[method] ?? []) this.#cache.delete(list);
    this.#emit(method, params);
    this.#emit('*', { ...params, method });
  }

  #serverRequest(request: JsonRpcRequest): void {
    const { id, method } = request;
    const params = isPlainObject(request.params) ? request.params : {};
    const reply = (message: JsonRpcMessage): void => {
      if (this.#closed) return;
      this.#transport?.send(message, this.#info(method, undefined, undefined)).catch(() => undefined); // gone: nobody to answer
    };
    const max = this.#options.maxInboundRequests ?? 64;
    if (this.#inbound.size >= max || this.#inbound.has(id)) {
      return reply({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: `The client is already answering ${this.#inbound.size} requests (maxInboundRequests)` } });
    }
    const controller = new AbortController();
    this.#inbound.set(id, controller);
    this.#answer(method, params, controller.signal).then(
      (result) => {
        this.#inbound.delete(id);
        if (!controller.signal.aborted) reply({ jsonrpc: '2.0', id, result });
      },
      (error: unknown) => {
        this.#inbound.delete(id);
        if (controller.signal.aborted) return;
        const code = error instanceof McpError ? error.code : ErrorCode.InternalError;
        reply({ jsonrpc: '2.0', id, error: { code, message: error instanceof Error ? error.message : String(error) } });
      },
    );
  }

  /** Runs the handler for a server's request (legacy) or input request (2026-07-28). */
  async #answer(method: string, params: Json, signal: AbortSignal): Promise<Json> {
    const o = this.#options;
    const extra: HandlerExtra = { signal };
    const missing = (what: string): never => {
      throw new McpError(method, ErrorCode.MethodNotFound, `Method not found: this client has no ${what} handler`);
    };
    switch (method) {
      case 'ping':
        return {};
      case 'sampling/createMessage':
        return (o.sampling ?? missing('sampling'))(params as unknown as CreateMessageParams, extra);
      case 'roots/list': {
        const roots = o.roots ?? missing('roots');
        return { roots: [...(typeof roots === 'function' ? await roots() : roots)] };
      }
      case 'elicitation/create': {
        const url = params['mode'] === 'url';
        const handler = typeof o.elicitation === 'function' ? o.elicitation : url ? o.elicitation?.url : o.elicitation?.form;
        if (handler === undefined) missing(url ? 'URL-mode elicitation' : 'form elicitation');
        const result = await (handler as ElicitationHandler)(params as unknown as ElicitFormParams, extra);
        if (url || !isPlainObject(result)) return result as unknown as Json;
        const checked = await completeElicitation(params['requestedSchema'], result);
        if (!checked.ok) throw new McpError(method, ErrorCode.InternalError, checked.message);
        return checked.result as unknown as Json;
      }
      default:
        return missing(method);
    }
  }

  async #answerInputs(method: string, requests: unknown, signal: AbortSignal | undefined): Promise<Json> {
    if (!isPlainObject(requests)) throw new McpError(method, ErrorCode.InternalError, 'The server asked for input without inputRequests');
    const entries = Object.entries(requests);
    if (entries.length > 64) throw new McpError(method, ErrorCode.InternalError, `The server asked for ${entries.length} inputs in one round (at most 64)`);
    const controller = new AbortController();
    const stop = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const answers: Json = {};
      await Promise.all(
        entries.map(async ([key, request]) => {
          const r = isPlainObject(request) ? request : {};
          answers[key] = await this.#answer(String(r['method']), isPlainObject(r['params']) ? r['params'] : {}, controller.signal);
        }),
      );
      return answers;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  #lost(error: Error | undefined): void {
    const reason = error ?? new McpTransportError('closed', 'The connection closed');
    this.#failAll(reason);
    if (!this.#closed) this.#emit('close', { message: reason.message });
    this.#closed = true;
  }

  #failAll(error: Error): void {
    for (const pending of [...this.#pending.values()]) pending.reject(error);
  }

  #emit(event: string, params: Json): void {
    const set = this.#listeners.get(event);
    if (set !== undefined) for (const listener of [...set]) this.#safely(() => listener(params));
  }

  #warn(message: string): void {
    this.#safely(() => this.#options.onWarning?.(message));
    this.#emit('warning', { message });
  }

  /** A listener that throws fails itself only: the connection keeps going. */
  #safely(run: () => void): void {
    try {
      run();
    } catch (error) {
      if (this.#listeners.get('warning')?.size) return;
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

const OPTION_KEYS = new Set<string>([
  'clientInfo', 'protocolVersion', 'sampling', 'elicitation', 'roots', 'capabilities', 'logLevel', 'requestTimeoutMs', 'maxPendingRequests',
  'maxInboundRequests', 'maxInputRounds', 'validateStructuredContent', 'discover', 'onWarning',
]);

function checkOptions(options: ClientOptions): void {
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) {
      const near = [...OPTION_KEYS].find((k) => k.toLowerCase() === key.toLowerCase() || k.startsWith(key.slice(0, 5)));
      throw new TypeError(`Unknown Client option "${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}`);
    }
  }
  const v = options.protocolVersion;
  if (v !== undefined && v !== 'auto' && !(SUPPORTED_VERSIONS as readonly string[]).includes(v)) {
    throw new TypeError(`Client option protocolVersion must be 'auto' or one of ${SUPPORTED_VERSIONS.join(', ')} (got ${JSON.stringify(v)})`);
  }
}

function capabilitiesOf(options: ClientOptions): ClientCapabilities {
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
