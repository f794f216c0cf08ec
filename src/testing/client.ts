import { Client, type ClientOptions } from '../client/client.js';
import { McpError, McpTransportError } from '../client/errors.js';
import type { JsonRpcId, JsonRpcMessage } from '../jsonrpc/message.js';
import type { AuthInfo, ConnectionFactory, HandleResult, McpConnection, MessageExtra, RequestInfo } from '../protocol/connection.js';
import type { ClientCapabilities, CompleteResult, CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, GetPromptResult, Implementation, InitializeResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListRootsResult, ListToolsResult, LoggingLevel, McpResult, McpToolResult, ReadResourceResult } from '../wire-types/index.js';
import { TestClientError } from './errors.js';
import { isPlainObject } from '../jsonrpc/message.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import { encodeMessage, encodeBatch } from '../jsonrpc/serialize.js';
import { CALL_KEY, LinkedTransport, type CallState, type LinkHost } from './link.js';

/** A message as the client would read it off the wire; throws UnserializableMessageError for a notification or request that cannot be. */
function onTheWire(message: JsonRpcMessage): unknown {
  return JSON.parse(encodeMessage(message));
}

type Json = Record<string, unknown>;

/** What a handler for a server→client request receives besides the params. */
export interface ClientRequestExtra {
  /** Aborted when the server cancels the request (`notifications/cancelled`) or the client closes. */
  signal: AbortSignal;
}

export type ElicitHandler = (params: ElicitParams, extra: ClientRequestExtra) => ElicitResult | Promise<ElicitResult>;
export type SampleHandler = (params: CreateMessageParams, extra: ClientRequestExtra) => CreateMessageResult | Promise<CreateMessageResult>;
export type ListRootsHandler = (params: Json, extra: ClientRequestExtra) => ListRootsResult | Promise<ListRootsResult>;

/** Where a captured message came from. */
export interface MessageInfo {
  /** The revision the message belongs to (negotiated, or 2026-07-28 on the modern path). */
  protocolVersion: string;
  /** For a response: the method of the request it answers. */
  answers?: string;
}

export interface TestClientOptions {
  /**
   * Speak 2026-07-28: no `initialize`; every request carries the protocol
   * version, client capabilities and info in `params._meta`, and
   * input-required results are answered and retried automatically.
   */
  modern?: boolean;
  /** Capabilities sent in `initialize` (legacy) or each request's `_meta` (modern). Default `{}`. */
  capabilities?: ClientCapabilities;
  /** Default `{ name: 'mcpkit-test-client', version: '0.0.0' }`. */
  clientInfo?: Implementation;
  /** Log level sent in each modern request's `_meta`. */
  logLevel?: LoggingLevel;
  /** Handed to the server with every message, as an HTTP transport would after authentication. */
  authInfo?: AuthInfo;
  requestInfo?: RequestInfo;
  onElicit?: ElicitHandler;
  onSample?: SampleHandler;
  onListRoots?: ListRootsHandler;
  /** Called with every message the server sends (e.g. to validate it against the spec's schema). */
  onMessage?: (message: JsonRpcMessage, info: MessageInfo) => void;
  /** Most retries of one modern request that keeps asking for input. Default 10. */
  maxRounds?: number;
}

export interface InitializeParams {
  protocolVersion?: string;
  capabilities?: ClientCapabilities;
  clientInfo?: Implementation;
}

export interface RequestOptions {
  /** Sent as `params._meta.progressToken`. */
  progressToken?: string | number;
  /** Extra `params._meta` fields. */
  meta?: Json;
  /** Aborting sends `notifications/cancelled` for the request; the call then rejects. */
  signal?: AbortSignal;
}

export const MODERN_PROTOCOL_VERSION = '2026-07-28';
const LATEST_LEGACY = '2025-11-25';
/** The `_meta` fields a test may set itself on 2026-07-28; the client's own values are the defaults. */
const PROTOCOL_META = ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/logLevel'];

const TEST_CLIENT_KEYS = keysOf<TestClientOptions>({ modern: true, capabilities: true, clientInfo: true, logLevel: true, authInfo: true, requestInfo: true, onElicit: true, onSample: true, onListRoots: true, onMessage: true, maxRounds: true });

/**
 * An in-memory MCP client for tests: mcpkit/client's `Client` linked to
 * `server.openConnection()` (no sockets, no processes). It records every
 * message the server sends, and answers server→client requests with the
 * handlers it was given. Create one with {@link createTestClient}.
 */
export class TestClient {
  /** Every message the server sent, in order: responses, notifications and server→client requests. */
  readonly messages: JsonRpcMessage[] = [];
  readonly #connection: McpConnection;
  readonly #options: TestClientOptions;
  readonly #modern: boolean;
  readonly #calls = new Map<number, CallState>();
  readonly #tasks = new Set<Promise<void>>();
  /** Legacy server→client requests being answered, by id: the server's `notifications/cancelled` aborts one. */
  readonly #answering = new Map<JsonRpcId, AbortController>();
  #nextCall = 1;
  #client: { client: Client; link: LinkedTransport; ready: Promise<void> } | undefined;
  #protocolVersion: string;
  #capabilities: ClientCapabilities;
  #clientInfo: Implementation;
  #closed = false;

  constructor(server: ConnectionFactory, options: TestClientOptions = {}) {
    refuseUnknownKeys(options, TEST_CLIENT_KEYS, 'createTestClient() options');
    this.#options = options;
    this.#modern = options.modern === true;
    this.#protocolVersion = this.#modern ? MODERN_PROTOCOL_VERSION : LATEST_LEGACY;
    this.#capabilities = options.capabilities ?? {};
    this.#clientInfo = options.clientInfo ?? { name: 'mcpkit-test-client', version: '0.0.0' };
    // Through the wire encoding, as on stdio and HTTP: what cannot be serialised fails the same way there and here.
    this.#connection = server.openConnection({ send: (message) => this.#receive(onTheWire(message) as JsonRpcMessage) });
    if (this.#modern) this.#connect(MODERN_PROTOCOL_VERSION);
  }

  /** The revision in use: the negotiated one (legacy) or 2026-07-28. */
  get protocolVersion(): string {
    return this.#protocolVersion;
  }

  get modern(): boolean {
    return this.#modern;
  }

  /** Notifications the server sent, optionally only those of one method. */
  notifications(method?: string): { method: string; params?: Json }[] {
    const out: { method: string; params?: Json }[] = [];
    for (const m of this.messages) {
      if ('method' in m && !('id' in m) && (method === undefined || m.method === method)) out.push(m as { method: string; params?: Json });
    }
    return out;
  }

  /**
   * Legacy: sends `initialize` then `notifications/initialized` and returns the
   * InitializeResult. Modern: sends `server/discover` and returns its result.
   */
  async initialize(params: InitializeParams = {}): Promise<InitializeResult> {
    const changed = params.capabilities !== undefined || params.clientInfo !== undefined;
    if (params.capabilities !== undefined) this.#capabilities = params.capabilities;
    if (params.clientInfo !== undefined) this.#clientInfo = params.clientInfo;
    if (this.#modern) {
      if (changed) this.#connect(MODERN_PROTOCOL_VERSION);
      return (await this.request('server/discover')) as InitializeResult;
    }
    const connected = this.#connect(params.protocolVersion ?? LATEST_LEGACY);
    const seen = this.messages.length;
    await connected.ready.catch((error: unknown) => {
      throw testError('initialize', error);
    });
    const answer = this.messages.slice(seen).find((m) => 'result' in m && isPlainObject(m.result) && 'protocolVersion' in m.result);
    const result = (answer !== undefined && 'result' in answer ? answer.result : {}) as InitializeResult;
    if (typeof result['protocolVersion'] === 'string') this.#protocolVersion = result['protocolVersion'];
    return result;
  }

  async listTools(cursor?: string): Promise<ListToolsResult> {
    return this.#typed<ListToolsResult>('tools/list', cursor === undefined ? {} : { cursor });
  }

  async callTool(name: string, args?: Json, options?: RequestOptions): Promise<McpToolResult> {
    return this.#typed<McpToolResult>('tools/call', args === undefined ? { name } : { name, arguments: args }, options);
  }

  async listResources(cursor?: string): Promise<ListResourcesResult> {
    return this.#typed<ListResourcesResult>('resources/list', cursor === undefined ? {} : { cursor });
  }

  async listResourceTemplates(cursor?: string): Promise<ListResourceTemplatesResult> {
    return this.#typed<ListResourceTemplatesResult>('resources/templates/list', cursor === undefined ? {} : { cursor });
  }

  async readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.#typed<ReadResourceResult>('resources/read', { uri }, options);
  }

  subscribe(uri: string): Promise<McpResult> {
    return this.request('resources/subscribe', { uri });
  }

  unsubscribe(uri: string): Promise<McpResult> {
    return this.request('resources/unsubscribe', { uri });
  }

  async listPrompts(cursor?: string): Promise<ListPromptsResult> {
    return this.#typed<ListPromptsResult>('prompts/list', cursor === undefined ? {} : { cursor });
  }

  async getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): Promise<GetPromptResult> {
    return this.#typed<GetPromptResult>('prompts/get', args === undefined ? { name } : { name, arguments: args }, options);
  }

  /** `completion/complete` for a prompt argument (`ref/prompt`) or a template variable (`ref/resource`). */
  complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: { arguments: Record<string, string> },
  ): Promise<CompleteResult> {
    return this.#typed<CompleteResult>('completion/complete', context === undefined ? { ref, argument } : { ref, argument, context });
  }

  setLevel(level: LoggingLevel): Promise<McpResult> {
    return this.request('logging/setLevel', { level });
  }

  ping(): Promise<McpResult> {
    return this.request('ping');
  }

  /**
   * Sends a request and returns its result; a JSON-RPC error rejects with a
   * {@link TestClientError}. On the modern path `_meta` is added and
   * input-required rounds are answered and retried until the result is final
   * (mcpkit/client's `Client` does both).
   */
  async request(method: string, params: Json = {}, options: RequestOptions = {}): Promise<Json> {
    if (this.#closed) throw new Error('The test client is closed');
    const connected = this.#client;
    // A legacy client that has not initialized yet: the request goes out as it is (the server decides).
    if (connected === undefined) return this.#requestRaw(method, this.#metaOf(params, options).params);
    await connected.ready;
    const { params: sent, protocol } = this.#metaOf(params, options);
    const key = this.#nextCall++;
    const call: CallState = { meta: protocol, aborted: false };
    this.#calls.set(key, call);
    const signal = options.signal;
    const onAbort = (): void => {
      call.aborted = true;
      // Best effort: a closed test client has no server left to tell.
      if (call.id !== undefined) void this.notify('notifications/cancelled', { requestId: call.id, reason: String(signal?.reason ?? 'aborted') }).catch(() => undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const withKey = { ...sent, _meta: { ...(isPlainObject(sent['_meta']) ? sent['_meta'] : {}), [CALL_KEY]: key } };
      return await connected.client.request(method, withKey);
    } catch (error) {
      throw testError(method, error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.#calls.delete(key);
    }
  }

  /** The helpers' typed view of `request` (the shape is the server's; nothing is checked here). */
  async #typed<T extends McpResult>(method: string, params?: Json, options?: RequestOptions): Promise<T> {
    return (await this.request(method, params, options)) as T;
  }

  /** Sends a notification to the server (e.g. `notifications/roots/list_changed`). */
  async notify(method: string, params?: Json): Promise<void> {
    await this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Hands any payload (a message, a batch, garbage) to the server as is and returns what it answered. */
  async send(payload: unknown): Promise<HandleResult> {
    if (this.#closed) throw new Error('The test client is closed');
    const methods = new Map<unknown, string>();
    for (const item of Array.isArray(payload) ? payload : [payload]) {
      if (isPlainObject(item) && 'id' in item && typeof item['method'] === 'string') methods.set(item['id'], item['method']);
    }
    const answered = await this.#connection.handleMessage(payload, this.#extra());
    // A result a transport cannot serialise (a BigInt, a cycle) is -32603 there, so it is here.
    const response = answered === undefined ? undefined : (JSON.parse(Array.isArray(answered) ? encodeBatch(answered) : encodeMessage(answered)) as HandleResult);
    for (const r of response === undefined ? [] : Array.isArray(response) ? response : [response]) {
      this.#record(r, methods.get(r.id));
    }
    return response;
  }

  /** Waits until every server→client request the client is answering has been answered. */
  async settled(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
  }

  /** Aborts pending answers and closes the connection (the server aborts in-flight requests). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    void this.#client?.client.close();
    for (const controller of this.#answering.values()) controller.abort(new Error('Test client closed'));
    this.#connection.close('Test client closed');
  }

  /** A `Client` on this connection, speaking `version`; a new one replaces the last (new capabilities, a new handshake). */
  #connect(version: string): { client: Client; link: LinkedTransport; ready: Promise<void> } {
    const previous = this.#client;
    const client = new Client(this.#clientOptions(version));
    const host: LinkHost = {
      connection: this.#connection,
      extra: () => this.#extra(),
      record: (message, answers) => this.#record(message, answers),
      calls: this.#calls,
      track: (work) => this.#track(work),
    };
    const link = new LinkedTransport(host);
    this.#client = { client, link, ready: client.connect(link) };
    this.#client.ready.catch(() => undefined);
    if (previous !== undefined) void previous.client.close();
    return this.#client;
  }

  #clientOptions(version: string): ClientOptions {
    const o = this.#options;
    const extra = (signal: AbortSignal): ClientRequestExtra => ({ signal });
    const options: ClientOptions = {
      clientInfo: this.#clientInfo,
      protocolVersion: version as ClientOptions['protocolVersion'] & string,
      // Exactly what the test declared: the handlers imply nothing (a test may well answer what it did not declare).
      capabilities: { elicitation: undefined, sampling: undefined, roots: undefined, ...this.#capabilities } as ClientCapabilities,
      requestTimeoutMs: 0,
      validateStructuredContent: false,
      maxInputRounds: (o.maxRounds ?? 10) + 1,
      maxInboundRequests: 10_000,
    };
    if (this.#modern) {
      // No round trip: a test client on 2026-07-28 needs no handshake.
      options.discover = { supportedVersions: [MODERN_PROTOCOL_VERSION], capabilities: {} };
      if (o.logLevel !== undefined) options.logLevel = o.logLevel;
    }
    const missing = (method: string): never => {
      throw new McpError(method, -32601, `Method not found: the test client has no handler for ${method}`);
    };
    options.elicitation = (params, { signal }) => (o.onElicit ?? missing('elicitation/create'))(params, extra(signal));
    options.sampling = (params, { signal }) => (o.onSample ?? missing('sampling/createMessage'))(params, extra(signal));
    options.roots = async () => (await (o.onListRoots ?? missing('roots/list'))({}, extra(new AbortController().signal))).roots;
    return options;
  }

  /** A request sent before a legacy `initialize`: no client session exists yet. */
  async #requestRaw(method: string, params: Json): Promise<Json> {
    const response = await this.send({ jsonrpc: '2.0', id: `pre-initialize-${this.#nextCall++}`, method, params });
    if (response === undefined || Array.isArray(response)) throw new TestClientError(method, 0, 'The server sent no response');
    if ('error' in response) throw new TestClientError(method, response.error.code, response.error.message, response.error.data);
    if (!isPlainObject(response.result)) throw new TestClientError(method, 0, 'The result is not an object');
    return response.result;
  }

  #extra(): MessageExtra {
    const extra: MessageExtra = {};
    if (this.#options.authInfo !== undefined) extra.authInfo = this.#options.authInfo;
    if (this.#options.requestInfo !== undefined) extra.requestInfo = this.#options.requestInfo;
    return extra;
  }

  /** The params with the test's `_meta` (progress token, extra fields); on 2026-07-28 its protocol fields are kept aside to win. */
  #metaOf(params: Json, options: RequestOptions): { params: Json; protocol: Json } {
    const given = isPlainObject(params['_meta']) ? params['_meta'] : {};
    const meta: Json = { ...given, ...options.meta };
    if (options.progressToken !== undefined) meta['progressToken'] = options.progressToken;
    const protocol: Json = {};
    if (this.#modern) {
      for (const key of PROTOCOL_META) {
        if (meta[key] !== undefined) protocol[key] = meta[key];
        delete meta[key];
      }
    }
    const { _meta: _given, ...rest } = params;
    return { params: Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta }, protocol };
  }

  #record(message: JsonRpcMessage, answers?: string): void {
    this.messages.push(message);
    const info: MessageInfo = { protocolVersion: this.#protocolVersion };
    if (answers !== undefined) info.answers = answers;
    this.#options.onMessage?.(message, info);
  }

  #track(work: Promise<unknown>): void {
    const task = work.then(
      () => undefined,
      () => undefined,
    );
    this.#tasks.add(task);
    void task.then(() => this.#tasks.delete(task));
  }

  /** A message the server sent outside a response: a notification or a server→client request. */
  #receive(message: JsonRpcMessage): void {
    this.#record(message);
    if ('method' in message && message.method === 'notifications/cancelled' && isPlainObject(message.params)) {
      this.#answering.get(message.params['requestId'] as JsonRpcId)?.abort(message.params['reason']);
    }
    // A legacy server's request is answered with the handler's result as it is, so that a test sees how the server
    // takes a malformed or partial answer; 2026-07-28 input requests go through the client (MRTR, SEP-1034 defaults).
    if ('method' in message && 'id' in message && (!this.#modern || this.#client === undefined)) return this.#answerServer(message.id, message.method, message.params);
    this.#client?.link.deliver(message);
  }

  #answerServer(id: JsonRpcId, method: string, rawParams: unknown): void {
    const controller = new AbortController();
    this.#answering.set(id, controller);
    const params = isPlainObject(rawParams) ? rawParams : {};
    const task = (async () => {
      let reply: JsonRpcMessage;
      try {
        // A cancelled request is no longer waited for, even when its handler ignores the signal.
        const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true }));
        reply = { jsonrpc: '2.0', id, result: (await Promise.race([this.#dispatch(method, params, controller.signal), aborted])) as Json };
      } catch (error) {
        const code = error instanceof TestClientError ? error.code : -32603;
        reply = { jsonrpc: '2.0', id, error: { code, message: error instanceof TestClientError ? error.detail : String(error instanceof Error ? error.message : error) } };
      } finally {
        this.#answering.delete(id);
      }
      // The server cancelled the request (or the client closed): it expects no answer.
      if (controller.signal.aborted || this.#closed) return;
      await this.#connection.handleMessage(reply, this.#extra());
    })();
    this.#track(task);
  }

  /** The test's handler for a server request: its result goes back as it is. */
  async #dispatch(method: string, params: Json, signal: AbortSignal): Promise<unknown> {
    const o = this.#options;
    const missing = (): never => {
      throw new TestClientError(method, -32601, `Method not found: the test client has no handler for ${method}`);
    };
    switch (method) {
      case 'elicitation/create':
        return o.onElicit ? o.onElicit(params as unknown as ElicitParams, { signal }) : missing();
      case 'sampling/createMessage':
        return o.onSample ? o.onSample(params as unknown as CreateMessageParams, { signal }) : missing();
      case 'roots/list':
        return o.onListRoots ? o.onListRoots(params, { signal }) : missing();
      case 'ping':
        return {};
      default:
        return missing();
    }
  }
}

/** What the client threw, as the test client's error: a JSON-RPC error keeps its code and data. */
function testError(method: string, error: unknown): unknown {
  if (error instanceof McpError) return new TestClientError(method, error.code, error.message, error.data);
  if (error instanceof McpTransportError && error.kind === 'closed') return new Error('The test client is closed');
  return error;
}

/**
 * Creates an in-memory client on `server` (anything with `openConnection`,
 * such as an `McpServer`). Legacy by default: call `initialize()` first.
 * With `modern: true` every request carries 2026-07-28 `_meta` and no
 * handshake is needed.
 *
 * @example
 * const client = createTestClient(server, { capabilities: { elicitation: {} }, onElicit: () => ({ action: 'accept', content: { ok: true } }) });
 * await client.initialize();
 * const result = await client.callTool('confirm', {});
 * client.close();
 */
export function createTestClient(server: ConnectionFactory, options?: TestClientOptions): TestClient {
  return new TestClient(server, options);
}
