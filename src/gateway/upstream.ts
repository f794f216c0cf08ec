/**
 * Connections to one upstream server. Each downstream session (legacy) or principal (2026-07-28,
 * no session) gets its own upstream link, opened on its first proxied request and closed with the
 * session, so two downstream clients never share an upstream session, its log level, its
 * subscriptions or its requests for input. A link whose upstream session expired (HTTP 404) is
 * re-opened and its log level and subscriptions replayed; a stdio process that exited is restarted
 * with backoff on the next request.
 */
import { Client, type ClientOptions, type RequestOptions } from '../client/client.js';
import { McpTransportError } from '../client/errors.js';
import { StdioClientTransport } from '../client/stdio.js';
import { StreamableHttpTransport } from '../client/http.js';
import type { ClientTransport } from '../client/transport.js';
import type { DiscoverResult, Implementation, LoggingLevel } from '../wire-types/index.js';
import type { UpdateAudience } from '../stores/bus.js';
import { unrefTimer } from '../util/timers.js';
import { upstreamEnv, type HttpUpstreamConfig, type StdioUpstreamConfig, type UpstreamConfig } from './config.js';

type Json = Record<string, unknown>;

/** The `_meta` key a listen stream's notifications name it by. */
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** Who a link belongs to: a downstream session, else a principal. */
export interface LinkOwner {
  readonly sessionId: string | undefined;
  /** The downstream principal's subject (or client id); undefined: unauthenticated. Unique only with `issuer`. */
  readonly principal: string | undefined;
  /** The issuer of the downstream token (its `iss` claim), when it names one. */
  readonly issuer: string | undefined;
  /** What a sessionless owner's link is keyed by: `issuedPrincipalOf(authInfo)`, `''` unauthenticated. */
  readonly id: string;
}

/** The key of an owner's link (its own session's, else its principal's). */
export const linkKeyOf = (owner: LinkOwner): string => (owner.sessionId !== undefined ? `s:${owner.sessionId}` : `p:${owner.id}`);

/** Who a link's resource updates are for: its session, else its principal (a shared link's: everyone). */
export const audienceOf = (link: UpstreamLink, shared: boolean): UpdateAudience | undefined => {
  if (shared) return undefined;
  return link.owner.sessionId !== undefined ? { sessionId: link.owner.sessionId } : { principal: link.owner.id };
};

/** Answers the upstream's server→client requests for one link (sampling, elicitation, roots). */
export type InputRelay = (link: UpstreamLink, method: string, params: Json, signal: AbortSignal) => Promise<Json>;

export interface UpstreamPoolOptions {
  /** The namespace or label used in errors ("upstream \"fs\""). */
  name: string;
  config: UpstreamConfig;
  clientInfo?: Implementation;
  /** Extra headers per downstream principal for an HTTP upstream (a token of its own, never the downstream's). */
  headers?: (owner: LinkOwner) => Record<string, string> | Promise<Record<string, string>>;
  /** Static bearer token for an HTTP upstream. */
  bearer?: string;
  relay: InputRelay;
  /** A notification from the upstream on this link (everything but progress, which follows its request). */
  onNotification: (link: UpstreamLink, method: string, params: Json) => void;
  /** Links open at once (default 256); a principal holds at most a quarter, and its own least recently used idle one is closed to make room. */
  maxLinks?: number;
  /**
   * A principal's link (no downstream session) with nothing in flight, no held call and no
   * subscription, unused this long, is closed (default 300 000 ms): its owner never says it is done.
   */
  linkIdleMs?: number;
  /** The keys of links with an upstream call held for the downstream's input (they are never idle). */
  heldLinks?: () => ReadonlySet<string>;
  /** First restart delay after a stdio upstream exited, doubled per exit up to `maxRestartDelayMs` (default 100 / 5000 ms). */
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  requestTimeoutMs?: number;
  /** The upstream's stderr (stdio). Default: dropped (the tail is kept for error messages). */
  onStderr?: (text: string) => void;
  /** Build the transport yourself (tests, custom fetch). */
  transport?: (owner: LinkOwner) => ClientTransport;
}

/** Names the upstream in messages the downstream client reads. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
}

/** One upstream connection and the state it must keep across reconnects. */
export class UpstreamLink {
  readonly key: string;
  readonly owner: LinkOwner;
  /** The level the downstream asked for (replayed on reconnect). */
  logLevel: LoggingLevel | undefined;
  /** Upstream URIs subscribed through this link (replayed on reconnect). */
  readonly subscriptions = new Set<string>();
  /** 2026-07-28: who holds each URI of `subscriptions` (downstream principals), so the last one out unsubscribes. */
  readonly #holders = new Map<string, Set<string>>();
  /** 2026-07-28: the listen stream that carries `subscriptions`, and the id its acknowledgement gave it. */
  #resourceListen: { controller: AbortController; id: unknown } | undefined;
  #acked: ((id: unknown) => void) | undefined;
  #scheduled: Promise<void> | undefined;
  #running: Promise<void> = Promise.resolve();
  /** Downstream requests in progress on this link, oldest first: where requests for input go. */
  readonly inFlight = new Set<unknown>();
  lastUsed = Date.now();
  /** Upstream requests of any kind (lists, subscribe) in progress: the link is not idle meanwhile. */
  #requests = 0;
  #client: Client | undefined;
  #opening: Promise<Client> | undefined;
  #exits = 0;
  #openedAt = 0;
  #lastExit: string | undefined;
  #closed = false;
  readonly #pool: UpstreamPool;

  constructor(pool: UpstreamPool, key: string, owner: LinkOwner) {
    this.#pool = pool;
    this.key = key;
    this.owner = owner;
  }

  get client(): Client | undefined {
    return this.#client;
  }

  /** Whether anything keeps the link from being idle: a call, an upstream request, a connect, a subscription. */
  get busy(): boolean {
    return this.inFlight.size > 0 || this.#requests > 0 || this.#opening !== undefined || this.subscriptions.size > 0;
  }

  /** The connected client, opening (or re-opening, after backoff) it when needed. */
  connected(): Promise<Client> {
    if (this.#client !== undefined) return Promise.resolve(this.#client);
    if (this.#closed) return Promise.reject(new UpstreamError(`upstream "${this.#pool.name}": the downstream session ended`));
    return (this.#opening ??= this.#open().finally(() => (this.#opening = undefined)));
  }

  async #open(): Promise<Client> {
    const pool = this.#pool;
    if (this.#exits > 0) await new Promise((resolve) => setTimeout(resolve, pool.restartDelay(this.#exits)));
    const replay = this.logLevel !== undefined || this.subscriptions.size > 0;
    const client = new Client(pool.clientOptions(this));
    client.on('*', (params) => {
      const { method, ...rest } = params;
      if (client.era === 'modern' && this.#ownListen(method, rest)) return;
      if (typeof method === 'string' && method !== 'notifications/progress' && method !== 'notifications/cancelled') pool.notify(this, method, rest);
    });
    client.on('close', (params) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      // A process that ran a while before it died starts again at once; one that keeps dying waits longer each time.
      this.#exits = Date.now() - this.#openedAt > 30_000 ? 1 : this.#exits + 1;
      this.#lastExit = typeof params['message'] === 'string' ? params['message'] : 'the connection closed';
    });
    try {
      await client.connect(pool.transportFor(this));
    } catch (error) {
      this.#exits++;
      throw new UpstreamError(`upstream "${pool.name}" could not be reached: ${(error as Error).message}`, { cause: error });
    }
    pool.remember(client);
    if (this.#closed) {
      await client.close();
      throw new UpstreamError(`upstream "${pool.name}": the downstream session ended`);
    }
    this.#openedAt = Date.now();
    this.#client = client;
    if (replay && client.era === 'legacy') {
      // What the downstream set on its session holds on the new upstream session too.
      if (this.logLevel !== undefined && client.serverCapabilities.logging !== undefined) await client.setLoggingLevel(this.logLevel).catch(() => undefined);
      for (const uri of this.subscriptions) await client.subscribeResource(uri).catch(() => undefined);
    }
    if (client.era === 'modern' && this.subscriptions.size > 0) {
      this.#resourceListen = undefined;
      void this.#relisten();
    }
    return client;
  }

  /**
   * One upstream request. A legacy session the upstream forgot (404) is re-opened and the request
   * sent once more; a connection that died under the request fails it with the reason.
   */
  async request(method: string, params: Json, options: RequestOptions = {}): Promise<Json> {
    this.#requests++;
    try {
      return await this.#request(method, params, options);
    } finally {
      this.#requests--;
      this.lastUsed = Date.now();
    }
  }

  async #request(method: string, params: Json, options: RequestOptions): Promise<Json> {
    const client = await this.connected();
    try {
      return (await client.request(method, params, options));
    } catch (error) {
      if (error instanceof McpTransportError && error.kind === 'session_expired' && this.#client === client) {
        this.#client = undefined;
        void client.close();
        const again = await this.connected();
        return (await again.request(method, params, options));
      }
      if (error instanceof McpTransportError && (error.kind === 'unreachable' || error.kind === 'closed') && !this.#closed) {
        throw new UpstreamError(`upstream "${this.#pool.name}" failed during ${method}: ${this.#lastExit ?? error.message}; the next request reconnects`, { cause: error });
      }
      throw error;
    }
  }

  /**
   * 2026-07-28: `who` (a downstream principal) listens to `uri`. A listen's filter cannot change,
   * so the link opens a new stream with every URI it holds and ends the old one once the new one
   * is acknowledged; resolves when `uri` is covered.
   */
  holdResource(uri: string, who: string): Promise<void> {
    const holders = this.#holders.get(uri);
    if (holders !== undefined) {
      holders.add(who);
      return this.#scheduled ?? this.#running;
    }
    this.#holders.set(uri, new Set([who]));
    this.subscriptions.add(uri);
    return this.#relisten();
  }

  /** 2026-07-28: `who` stopped listening to `uri`; the last one out drops it from the upstream stream. */
  releaseResource(uri: string, who: string): void {
    const holders = this.#holders.get(uri);
    if (holders === undefined || !holders.delete(who) || holders.size > 0) return;
    this.#holders.delete(uri);
    this.subscriptions.delete(uri);
    void this.#relisten();
  }

  /** The downstream principals listening to `uri` on this link. */
  holdersOf(uri: string): ReadonlySet<string> {
    return this.#holders.get(uri) ?? new Set();
  }

  /** One re-open at a time; the changes made meanwhile share the next one. */
  #relisten(): Promise<void> {
    if (this.#scheduled !== undefined) return this.#scheduled;
    const next = this.#running
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        this.#scheduled = undefined;
        return this.#openResourceListen();
      });
    this.#scheduled = next;
    this.#running = next.catch(() => undefined);
    return next;
  }

  async #openResourceListen(): Promise<void> {
    const client = this.#client;
    const previous = this.#resourceListen;
    if (client === undefined || client.era !== 'modern' || this.#closed || this.subscriptions.size === 0) {
      previous?.controller.abort();
      this.#resourceListen = undefined;
      return;
    }
    const controller = new AbortController();
    const entry = { controller, id: undefined as unknown };
    const acked = new Promise<void>((resolve) => {
      this.#acked = (id) => {
        // Switched over at the acknowledgement itself: no update falls between the two streams.
        entry.id = id;
        this.#resourceListen = entry;
        previous?.controller.abort();
        resolve();
      };
    });
    const ended = client.listen({ resourceSubscriptions: [...this.subscriptions] }, { signal: controller.signal }).then(() => undefined, () => undefined).finally(() => {
      if (this.#resourceListen === entry) this.#resourceListen = undefined;
    });
    await Promise.race([acked, ended]);
    this.#acked = undefined;
  }

  /** True for what belongs to the link's own resource listen: its acknowledgement, or an update from a stream it ended. */
  #ownListen(method: unknown, params: Json): boolean {
    const meta = params['_meta'] as Json | undefined;
    const id = typeof meta === 'object' && meta !== null ? meta[SUBSCRIPTION_ID] : undefined;
    if (method === 'notifications/subscriptions/acknowledged') {
      const filter = params['notifications'] as Json | undefined;
      if (typeof filter !== 'object' || filter === null || !Array.isArray(filter['resourceSubscriptions'])) return false;
      this.#acked?.(id);
      return true;
    }
    return method === 'notifications/resources/updated' && (this.#resourceListen === undefined || this.#resourceListen.id !== id);
  }

  /** Ends the link: the upstream session is closed (stdio: the process stops). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#resourceListen?.controller.abort();
    this.#resourceListen = undefined;
    const client = this.#client ?? (await this.#opening?.catch(() => undefined));
    this.#client = undefined;
    await client?.close();
  }
}

/** Every link to one upstream, keyed by owner, bounded by `maxLinks`. */
export class UpstreamPool {
  readonly name: string;
  readonly #options: UpstreamPoolOptions;
  readonly #links = new Map<string, UpstreamLink>();
  #discover: DiscoverResult | undefined;
  #sweeper: ReturnType<typeof setInterval> | undefined;
  /** The one subscriptions/listen kept open on a 2026-07-28 upstream, so its list changes are heard. */
  #listening: AbortController | undefined;
  #closed = false;

  constructor(options: UpstreamPoolOptions) {
    this.name = options.name;
    this.#options = options;
  }

  /** Whether every downstream owner shares one link (a stdio upstream with `spawn: "shared"`, or a given client). */
  get shared(): boolean {
    const config = this.#options.config;
    return 'command' in config && config.spawn === 'shared';
  }

  /** The link of this owner, created (not yet connected) on first use. */
  linkFor(owner: LinkOwner): UpstreamLink {
    if (this.#closed) throw new UpstreamError(`upstream "${this.name}" is closed`);
    const key = this.shared ? 'shared' : linkKeyOf(owner);
    let link = this.#links.get(key);
    if (link !== undefined) {
      link.lastUsed = Date.now();
      // Most recently used last: the first idle entry is the one to close.
      this.#links.delete(key);
      this.#links.set(key, link);
      return link;
    }
    const max = this.#options.maxLinks ?? 256;
    // Expired links make room first: a link idle past linkIdleMs holds nobody's live state.
    if (this.#links.size >= max) this.#sweep();
    // One principal holds at most a quarter of the links, and makes room among its own: one client
    // never closes another's live upstream session (its subscriptions, log level, process).
    const own = [...this.#links.values()].filter((l) => l.owner.id === owner.id);
    if (own.length >= Math.max(1, Math.floor(max / 4)) || this.#links.size >= max) {
      const idle = own.find((l) => l.inFlight.size === 0);
      if (idle === undefined) throw new UpstreamError(`upstream "${this.name}": ${this.#links.size >= max ? `${max} links are open (maxLinks), none idle longer than linkIdleMs (${this.#idleMs} ms),` : `this principal has ${own.length} links open, a quarter of maxLinks (${max})`} and none of this principal's is idle; try again when a call ends`);
      this.#links.delete(idle.key);
      void idle.close();
    }
    link = new UpstreamLink(this, key, this.shared ? { sessionId: undefined, principal: undefined, issuer: undefined, id: '' } : owner);
    this.#links.set(key, link);
    if (this.#sweeper === undefined && !this.shared) this.#sweeper = unrefTimer(setInterval(() => this.#sweep(), this.#idleMs));
    return link;
  }

  get #idleMs(): number {
    return this.#options.linkIdleMs ?? 300_000;
  }

  /**
   * Closes the principals' links idle past linkIdleMs. A session's link ends with its session; one
   * with a call in flight or held, or carrying subscriptions, stays whatever its age.
   */
  #sweep(): void {
    const now = Date.now();
    const held = this.#options.heldLinks?.() ?? new Set<string>();
    for (const link of [...this.#links.values()]) {
      if (link.owner.sessionId !== undefined || this.shared) continue;
      if (link.busy || held.has(link.key) || now - link.lastUsed <= this.#idleMs) continue;
      this.#links.delete(link.key);
      void link.close();
    }
    if (this.#links.size === 0) this.#stopSweeping();
  }

  #stopSweeping(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  /** Any live link (for lists, which every owner shares), else a new one for this owner. */
  anyLink(owner: LinkOwner): UpstreamLink {
    for (const link of this.#links.values()) if (link.client !== undefined) return link;
    return this.linkFor(owner);
  }

  get links(): readonly UpstreamLink[] {
    return [...this.#links.values()];
  }

  /** The downstream session ended: its upstream session ends too. */
  async sessionClosed(sessionId: string): Promise<void> {
    const link = this.#links.get(`s:${sessionId}`);
    if (link === undefined) return;
    this.#links.delete(link.key);
    await link.close();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopSweeping();
    this.#listening?.abort();
    const links = [...this.#links.values()];
    this.#links.clear();
    await Promise.all(links.map((link) => link.close()));
  }

  /** @internal */
  restartDelay(exits: number): number {
    const first = this.#options.restartDelayMs ?? 100;
    return Math.min(first * 2 ** Math.max(0, exits - 1), this.#options.maxRestartDelayMs ?? 5000);
  }

  /** @internal a 2026-07-28 upstream's discover result: the next link connects without a round trip */
  remember(client: Client): void {
    if (client.era !== 'modern') return;
    if (client.discoverResult !== undefined) this.#discover = client.discoverResult;
    this.#listen(client);
  }

  /**
   * A 2026-07-28 upstream tells of list changes only on a subscriptions/listen stream: one per
   * upstream (list changes are the same for every owner), opened again by the next link to connect
   * once it ended.
   */
  #listen(client: Client): void {
    const caps = client.serverCapabilities;
    const filter = { toolsListChanged: caps.tools?.listChanged === true, promptsListChanged: caps.prompts?.listChanged === true, resourcesListChanged: caps.resources?.listChanged === true };
    if (this.#listening !== undefined || this.#closed || (!filter.toolsListChanged && !filter.promptsListChanged && !filter.resourcesListChanged)) return;
    const controller = new AbortController();
    this.#listening = controller;
    void client.listen(filter, { signal: controller.signal }).catch(() => undefined).finally(() => {
      if (this.#listening === controller) this.#listening = undefined;
    });
  }

  /** @internal */
  notify(link: UpstreamLink, method: string, params: Json): void {
    this.#options.onNotification(link, method, params);
  }

  /** @internal the client a link opens: it declares every client capability the gateway relays. */
  clientOptions(link: UpstreamLink): ClientOptions {
    const relay = this.#options.relay;
    const options: ClientOptions = {
      clientInfo: this.#options.clientInfo ?? { name: 'mcpkit-gateway', version: '0.0.0' },
      sampling: (params, extra) => relay(link, 'sampling/createMessage', params as unknown as Json, extra.signal) as never,
      elicitation: { form: (params, extra) => relay(link, 'elicitation/create', params as unknown as Json, extra.signal) as never, url: (params, extra) => relay(link, 'elicitation/create', params as unknown as Json, extra.signal) as never },
      roots: async () => ((await relay(link, 'roots/list', {}, new AbortController().signal))['roots'] ?? []) as never,
      // The gateway passes results through as they came; the downstream client checks them.
      validateStructuredContent: false,
      requestTimeoutMs: this.#options.requestTimeoutMs ?? 0,
    };
    if (this.#discover !== undefined) options.discover = this.#discover;
    return options;
  }

  /** @internal */
  transportFor(link: UpstreamLink): ClientTransport {
    const o = this.#options;
    if (o.transport !== undefined) return o.transport(link.owner);
    return 'command' in o.config ? this.#stdio(o.config) : this.#http(o.config, link.owner);
  }

  #stdio(config: StdioUpstreamConfig): ClientTransport {
    return new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: upstreamEnv(process.env, config.env),
      inheritEnv: false,
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      ...(this.#options.onStderr === undefined ? {} : { onStderr: this.#options.onStderr }),
    });
  }

  #http(config: HttpUpstreamConfig, owner: LinkOwner): ClientTransport {
    const o = this.#options;
    const fixed = config.headers ?? {};
    const hook = o.headers;
    return new StreamableHttpTransport(config.url, {
      headers: hook === undefined ? fixed : async () => ({ ...fixed, ...(await hook(owner)) }),
      ...(o.bearer === undefined ? {} : { token: o.bearer }),
      legacySseFallback: config.type !== 'http' && config.type !== 'streamable-http',
    });
  }
}
