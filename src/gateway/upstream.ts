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
import type { ClientTransport } from '../client/transport.js';
import type { LoggingLevel } from '../wire-types/index.js';
import type { UpdateAudience } from '../stores/bus.js';
import { LiveList, type LiveEntry } from '../util/live-list.js';

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
  /** What a sessionless owner's link is keyed by: `principalOf(authInfo)`, `''` unauthenticated. */
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


/** What a link asks of the pool it belongs to (upstream-pool.ts). */
export interface LinkHost {
  readonly name: string;
  restartDelay(exits: number): number;
  clientOptions(link: UpstreamLink): ClientOptions;
  transportFor(link: UpstreamLink): ClientTransport;
  remember(client: Client): void;
  notify(link: UpstreamLink, method: string, params: Json): void;
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
  /** Who holds each URI of `subscriptions` (downstream sessions or principals), so the last one out unsubscribes. */
  readonly #holders = new Map<string, Set<string>>();
  /** 2026-07-28: the listen stream that carries `subscriptions`, and the id its acknowledgement gave it. */
  #resourceListen: { controller: AbortController; id: unknown } | undefined;
  #acked: ((id: unknown) => void) | undefined;
  #scheduled: Promise<void> | undefined;
  #running: Promise<void> = Promise.resolve();
  /** Downstream requests in progress on this link, oldest first: where requests for input go. A LiveList, not a Set (live-list.ts). */
  readonly inFlight = new LiveList<LiveEntry<unknown>>();
  lastUsed = Date.now();
  /** When its pool last handed it out, counted (a tie-free order for choosing the least recently used). */
  taken = 0;
  /** Upstream requests other than calls (lists, subscribe, log level) in progress, counted by the proxy: the link is not idle meanwhile. */
  requests = 0;
  #client: Client | undefined;
  #opening: Promise<Client> | undefined;
  #exits = 0;
  #openedAt = 0;
  #lastExit: string | undefined;
  #closed = false;
  readonly #pool: LinkHost;

  constructor(pool: LinkHost, key: string, owner: LinkOwner) {
    this.#pool = pool;
    this.key = key;
    this.owner = owner;
  }

  get client(): Client | undefined {
    return this.#client;
  }

  /** Whether anything keeps the link from being idle: a call, an upstream request, a connect, a subscription. */
  get busy(): boolean {
    return this.inFlight.size > 0 || this.requests > 0 || this.#opening !== undefined || this.subscriptions.size > 0;
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
   * sent once more; a connection that died under the request fails it with the reason. Not counted
   * here: the proxy tracks every request it sends (calls in `inFlight`, the rest in `requests`),
   * so the connected path is the client's own promise and one catch.
   */
  request(method: string, params: Json, options: RequestOptions = {}): Promise<Json> {
    const client = this.#client;
    if (client === undefined) return this.connected().then((c) => this.#on(c, method, params, options));
    return this.#on(client, method, params, options);
  }

  #on(client: Client, method: string, params: Json, options: RequestOptions): Promise<Json> {
    return client.request(method, params, options).catch((error: unknown) => this.#failed(client, error, method, params, options));
  }

  async #failed(client: Client, error: unknown, method: string, params: Json, options: RequestOptions): Promise<Json> {
    if (error instanceof McpTransportError && error.kind === 'session_expired' && this.#client === client) {
      this.#client = undefined;
      void client.close();
      const again = await this.connected();
      return again.request(method, params, options);
    }
    if (error instanceof McpTransportError && (error.kind === 'unreachable' || error.kind === 'closed') && !this.#closed) {
      throw new UpstreamError(`upstream "${this.#pool.name}" failed during ${method}: ${this.#lastExit ?? error.message}; the next request reconnects`, { cause: error });
    }
    throw error;
  }

  /**
   * `who` (a downstream session or principal) holds `uri` on this link; true when it is the first,
   * so the upstream is to be told. On a shared link several downstream clients hold one URI.
   */
  hold(uri: string, who: string): boolean {
    const holders = this.#holders.get(uri);
    if (holders !== undefined) {
      holders.add(who);
      return false;
    }
    this.#holders.set(uri, new Set([who]));
    this.subscriptions.add(uri);
    return true;
  }

  /** `who` lets go of `uri`; true when it held it last, so the upstream is to be told. */
  release(uri: string, who: string): boolean {
    const holders = this.#holders.get(uri);
    if (holders === undefined || !holders.delete(who) || holders.size > 0) return false;
    this.#holders.delete(uri);
    this.subscriptions.delete(uri);
    return true;
  }

  /** `who` is gone (its session ended): the URIs it held last. */
  releaseAll(who: string): string[] {
    return [...this.#holders.keys()].filter((uri) => this.release(uri, who));
  }

  /**
   * 2026-07-28: `who` (a downstream principal) listens to `uri`. A listen's filter cannot change,
   * so the link opens a new stream with every URI it holds and ends the old one once the new one
   * is acknowledged; resolves when `uri` is covered.
   */
  holdResource(uri: string, who: string): Promise<void> {
    if (!this.hold(uri, who)) return this.#scheduled ?? this.#running;
    return this.#relisten();
  }

  /** 2026-07-28: `who` stopped listening to `uri`; the last one out drops it from the upstream stream. */
  releaseResource(uri: string, who: string): void {
    if (this.release(uri, who)) void this.#relisten();
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
