/** The links to one upstream server, one per downstream owner: bounded, swept when idle, listened to. */
import type { Client} from '../client/client.js';
import { type ClientOptions } from '../client/client.js';
import { StdioClientTransport } from '../client/stdio.js';
import { StreamableHttpTransport } from '../client/http.js';
import type { ClientTransport } from '../client/transport.js';
import type { DiscoverResult, Implementation } from '../wire-types/index.js';
import { unrefTimer } from '../util/timers.js';
import { upstreamEnv, type HttpUpstreamConfig, type StdioUpstreamConfig, type UpstreamConfig } from './config.js';
import { linkKeyOf, UpstreamError, UpstreamLink, type InputRelay, type LinkHost, type LinkOwner } from './upstream.js';

type Json = Record<string, unknown>;

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

/** Every link to one upstream, keyed by owner, bounded by `maxLinks`. */
export class UpstreamPool implements LinkHost {
  readonly name: string;
  readonly #options: UpstreamPoolOptions;
  readonly #links = new Map<string, UpstreamLink>();
  #taken = 0;
  #discover: DiscoverResult | undefined;
  #sweeper: ReturnType<typeof setInterval> | undefined;
  /** The one subscriptions/listen kept open on a 2026-07-28 upstream, so its list changes are heard. */
  #listening: AbortController | undefined;
  #closed = false;
  /** Links taken out of the pool and still closing: close() waits for them too (a stdio process still running). */
  readonly #closing = new Set<Promise<void>>();

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
      // Not moved to the Map's end to keep it in use order: a delete and a set per call churns the
      // Map's table (see LiveList); the least recently used is found by `taken` when room is needed.
      link.lastUsed = Date.now();
      link.taken = ++this.#taken;
      return link;
    }
    const max = this.#options.maxLinks ?? 256;
    // Expired links make room first: a link idle past linkIdleMs holds nobody's live state.
    if (this.#links.size >= max) this.#sweep();
    // One principal holds at most a quarter of the links, and makes room among its own: one client
    // never closes another's live upstream session (its subscriptions, log level, process).
    const own = [...this.#links.values()].filter((l) => l.owner.id === owner.id);
    if (own.length >= Math.max(1, Math.floor(max / 4)) || this.#links.size >= max) {
      // Idle as the sweep means it: a link carrying subscriptions, a list fetch or a held call is someone's live state.
      const held = this.#options.heldLinks?.() ?? new Set<string>();
      const idle = leastRecentlyUsed(own.filter((l) => !l.busy && !held.has(l.key)));
      if (idle === undefined) throw new UpstreamError(`upstream "${this.name}": ${this.#links.size >= max ? `${max} links are open (maxLinks), none idle longer than linkIdleMs (${this.#idleMs} ms),` : `this principal has ${own.length} links open, a quarter of maxLinks (${max})`} and none of this principal's is idle (each has a call, a subscription or an upstream request on it); try again when one ends`);
      void this.#retire(idle);
    }
    link = new UpstreamLink(this, key, this.shared ? { sessionId: undefined, principal: undefined, issuer: undefined, id: '' } : owner);
    link.taken = ++this.#taken;
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
      void this.#retire(link);
    }
    if (this.#links.size === 0) this.#stopSweeping();
  }

  #stopSweeping(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  /** This owner's link if it has one; none is created. */
  existingLink(owner: LinkOwner): UpstreamLink | undefined {
    return this.#links.get(this.shared ? 'shared' : linkKeyOf(owner));
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
    await this.#retire(link);
  }

  /** Takes a link out of the pool and closes it; the pool's close() waits for it. Never rejects: a link that fails to close is gone all the same. */
  #retire(link: UpstreamLink): Promise<void> {
    this.#links.delete(link.key);
    const closing: Promise<void> = link.close().catch(() => undefined).finally(() => this.#closing.delete(closing));
    this.#closing.add(closing);
    return closing;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopSweeping();
    this.#listening?.abort();
    for (const link of [...this.#links.values()]) void this.#retire(link);
    await Promise.all([...this.#closing]);
  }

  /** LinkHost. Its members are not marked internal: stripInternal would drop them from the class but not the interface. */
  restartDelay(exits: number): number {
    const first = this.#options.restartDelayMs ?? 100;
    return Math.min(first * 2 ** Math.max(0, exits - 1), this.#options.maxRestartDelayMs ?? 5000);
  }

  /** LinkHost: a 2026-07-28 upstream's discover result: the next link connects without a round trip */
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

  /** LinkHost */
  notify(link: UpstreamLink, method: string, params: Json): void {
    this.#options.onNotification(link, method, params);
  }

  /** LinkHost: the client a link opens: it declares every client capability the gateway relays. */
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

  /** LinkHost */
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

function leastRecentlyUsed(links: readonly UpstreamLink[]): UpstreamLink | undefined {
  let oldest: UpstreamLink | undefined;
  for (const link of links) if (oldest === undefined || link.taken < oldest.taken) oldest = link;
  return oldest;
}
