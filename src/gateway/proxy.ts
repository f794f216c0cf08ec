/**
 * `createProxy(upstream)`: an upstream MCP server as a provider. Lists are fetched once (every page)
 * and cached until the upstream says they changed, so a proxied call is exactly one upstream
 * request. Each call goes out on the link of its downstream owner (session, else principal), with
 * progress, logging, cancellation and requests for input relayed back to the request that caused them.
 */
import { McpError, McpTransportError } from '../client/errors.js';
import type { Client, RequestOptions } from '../client/client.js';
import { ErrorCode, JsonRpcProtocolError } from '../jsonrpc/errors.js';
import { isPlainObject } from '../jsonrpc/message.js';
import { abortFlagOf, type RequestContext } from '../protocol/request/context.js';
import type { AbortSignalLike } from '../protocol/connection.js';
import { LazyAbort } from '../protocol/request/abort.js';
import { META_LOG_LEVEL } from '../protocol/wire/meta-keys.js';
import { issuerOf, principalOf } from '../protocol/request/principal.js';
import type { McpPrompt, McpResource, McpResourceTemplate, McpTool } from '../registries/types.js';
import type { Implementation, LoggingLevel } from '../wire-types/index.js';
import type { McpProvider, McpProviderChange, McpProviderList } from '../registries/provider.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import { LiveEntry } from '../util/live-list.js';
import type { UpstreamConfig } from './config.js';
import { HoldTable } from './hold.js';
import { promptOf, resourceOf, templateOf, toolOf, type ItemHooks } from './items.js';
import { audienceOf, linkKeyOf, UpstreamError, type LinkOwner, type UpstreamLink } from './upstream.js';
import { UpstreamPool, type UpstreamPoolOptions } from './upstream-pool.js';

type Json = Record<string, unknown>;

export interface ProxyOptions {
  /** Names the upstream in errors and warnings (default: its command or URL). */
  name?: string;
  /** How the gateway introduces itself to the upstream. */
  clientInfo?: Implementation;
  /** Headers per downstream owner for an HTTP upstream: a credential of its own (token exchange), never the downstream token. */
  headers?: UpstreamPoolOptions['headers'];
  /** A static bearer token for an HTTP upstream. */
  bearer?: string;
  /** Upstream links open at once (default 256). */
  maxLinks?: number;
  /** A principal's link idle this long (nothing in flight or held, no subscription) is closed (default 300 000 ms). */
  linkIdleMs?: number;
  /** Most items kept per list (default 10 000); an upstream listing more is cut with a warning. */
  maxListItems?: number;
  /** Longest an upstream call may wait for the downstream to answer its request for input (default 600 000 ms). */
  holdTimeoutMs?: number;
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  onStderr?: (text: string) => void;
  onWarning?: (message: string) => void;
  /** Build each link's transport yourself (tests, in-memory upstreams). */
  transport?: UpstreamPoolOptions['transport'];
}

const PROXY_KEYS = keysOf<ProxyOptions>({
  name: true, clientInfo: true, headers: true, bearer: true, maxLinks: true, linkIdleMs: true, maxListItems: true, holdTimeoutMs: true,
  restartDelayMs: true, maxRestartDelayMs: true, onStderr: true, onWarning: true, transport: true,
});

const LIST_OF: Record<string, McpProviderList> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/resources/list_changed': 'resources',
  'notifications/prompts/list_changed': 'prompts',
};

/** The request context key the gateway keeps a held upstream call's id under (signed with the requestState). */
const HOLD_KEY = 'mcpkit.gateway/hold';

type Lists = {
  tools?: readonly McpTool<never, RequestContext>[];
  resources?: readonly McpResource<RequestContext>[];
  templates?: readonly McpResourceTemplate<RequestContext>[];
  prompts?: readonly McpPrompt<RequestContext>[];
};

/** A provider that serves an upstream MCP server's tools, resources, templates and prompts. */
export interface McpProxy extends McpProvider<RequestContext> {
  readonly label: string;
  /** Connects (one link) and fetches every list, so the first request pays no list call. */
  ready(): Promise<void>;
  /** The downstream session ended: its upstream session is closed. */
  sessionClosed(sessionId: string): Promise<void>;
  /** Upstream requests sent so far (counted per method): the bench checks one per proxied call. */
  readonly requests: Readonly<Record<string, number>>;
  close(): Promise<void>;
}

export function createProxy(upstream: UpstreamConfig, options: ProxyOptions = {}): McpProxy {
  refuseUnknownKeys(options, PROXY_KEYS, 'createProxy() options');
  const idle = options.linkIdleMs;
  // setInterval takes at most 2^31 - 1 ms; past that it fires at once.
  if (idle !== undefined && (typeof idle !== 'number' || !Number.isInteger(idle) || idle < 1 || idle > 2_147_483_647)) {
    throw new RangeError(`createProxy() options: linkIdleMs must be a whole number of milliseconds from 1 to 2147483647 (got ${typeof idle === 'number' ? idle : JSON.stringify(idle) ?? typeof idle})`);
  }
  return new Proxy_(upstream, options);
}

/** Who holds a 2026-07-28 subscription on a link: the downstream principal (as the listen stream counts it). */
const holderOf = (ctx: RequestContext): string => principalOf(ctx.authInfo) ?? '';

const ended = (label: string): string => `${label}: the downstream request ended before it reached the upstream`;

/** Who holds a legacy subscription on a link: the downstream session, else (stdio downstream) its principal. */
const subscriberOf = (sessionId: string | undefined, principal: string): string => (sessionId !== undefined ? `s:${sessionId}` : `p:${principal}`);

/**
 * Links are keyed by the issuer-qualified principal: one `sub` from two authorization servers is
 * two people, who must not share an upstream session (or its `headers(owner)` credential).
 */
const ownerOf = (ctx: RequestContext | undefined): LinkOwner => ({
  sessionId: ctx?.sessionId,
  principal: ctx?.auth?.subject ?? ctx?.auth?.clientId,
  issuer: issuerOf(ctx?.authInfo),
  id: principalOf(ctx?.authInfo) ?? '',
});

class Proxy_ implements McpProxy {
  readonly label: string;
  readonly requests: Record<string, number> = {};
  readonly #pool: UpstreamPool;
  readonly #options: ProxyOptions;
  readonly #listeners = new Set<(change: McpProviderChange) => void>();
  readonly #holds: HoldTable;
  #lists: Lists = {};
  #fetching: Partial<Record<keyof Lists, Promise<readonly unknown[]>>> = {};
  readonly #hooks: ItemHooks = {
    call: (ctx, method, params) => this.#call(ctx, method, params),
    completes: () => this.#pool.links.find((l) => l.client !== undefined)?.client?.serverCapabilities.completions !== undefined,
  };

  constructor(upstream: UpstreamConfig, options: ProxyOptions) {
    this.#options = options;
    this.label = `proxy "${options.name ?? ('command' in upstream ? upstream.command : upstream.url)}"`;
    this.#holds = new HoldTable(options.holdTimeoutMs ?? 600_000);
    const pool: UpstreamPoolOptions = {
      name: options.name ?? ('command' in upstream ? upstream.command : upstream.url),
      config: upstream,
      relay: (link, method, params, signal) => this.#relay(link, method, params, signal),
      onNotification: (link, method, params) => this.#notification(link, method, params),
      heldLinks: () => this.#holds.linkKeys(),
    };
    for (const key of ['clientInfo', 'headers', 'bearer', 'maxLinks', 'linkIdleMs', 'restartDelayMs', 'maxRestartDelayMs', 'onStderr', 'transport'] as const) {
      if (options[key] !== undefined) (pool as unknown as Json)[key] = options[key];
    }
    this.#pool = new UpstreamPool(pool);
  }

  async ready(): Promise<void> {
    await this.#pool.anyLink(ownerOf(undefined)).connected();
    await Promise.all([this.listTools(undefined), this.listResources(undefined), this.listResourceTemplates(undefined), this.listPrompts(undefined)]);
  }

  async sessionClosed(sessionId: string): Promise<void> {
    if (!this.#pool.shared) return this.#pool.sessionClosed(sessionId);
    // A shared link outlives every session: what the ended session alone held is unsubscribed.
    const link = this.#pool.links[0];
    if (link === undefined) return;
    for (const uri of link.releaseAll(subscriberOf(sessionId, ''))) {
      if (link.client?.era === 'legacy') await this.#sendUntracked(link, 'resources/unsubscribe', { uri }).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.#holds.clear();
    await this.#pool.close();
  }

  onChange(listener: (change: McpProviderChange) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  // ---- lists: fetched once, every page, until the upstream says they changed ------------

  listTools(ctx: RequestContext | undefined): readonly McpTool<never, RequestContext>[] | Promise<readonly McpTool<never, RequestContext>[]> {
    return this.#lists.tools ?? this.#fetch('tools', 'tools/list', 'tools', ctx, (wire) => this.#tool(wire), 'tools');
  }

  listResources(ctx: RequestContext | undefined): readonly McpResource<RequestContext>[] | Promise<readonly McpResource<RequestContext>[]> {
    return this.#lists.resources ?? this.#fetch('resources', 'resources/list', 'resources', ctx, (wire) => this.#resource(wire), 'resources');
  }

  listResourceTemplates(ctx: RequestContext | undefined): readonly McpResourceTemplate<RequestContext>[] | Promise<readonly McpResourceTemplate<RequestContext>[]> {
    return this.#lists.templates ?? this.#fetch('templates', 'resources/templates/list', 'resourceTemplates', ctx, (wire) => this.#template(wire), 'resources');
  }

  listPrompts(ctx: RequestContext | undefined): readonly McpPrompt<RequestContext>[] | Promise<readonly McpPrompt<RequestContext>[]> {
    return this.#lists.prompts ?? this.#fetch('prompts', 'prompts/list', 'prompts', ctx, (wire) => this.#prompt(wire), 'prompts');
  }

  #fetch<T>(slot: keyof Lists, method: string, field: string, ctx: RequestContext | undefined, make: (wire: Json) => T | undefined, capability: 'tools' | 'resources' | 'prompts'): Promise<readonly T[]> {
    const running = this.#fetching[slot];
    if (running !== undefined) return running as Promise<readonly T[]>;
    const generation = this.#lists;
    const promise = (async () => {
      // A request already over (its session may have ended) opens no link of its owner's, which would outlive it.
      const link = this.#pool.anyLink(ownerOf(ctx !== undefined && abortOf(ctx).aborted ? undefined : ctx));
      const client = await link.connected();
      if (client.serverCapabilities[capability] === undefined) return [];
      const items: T[] = [];
      const max = this.#options.maxListItems ?? 10_000;
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await this.#sendUntracked(link, method, cursor === undefined ? {} : { cursor });
        for (const wire of Array.isArray(page[field]) ? (page[field] as unknown[]) : []) {
          const item = isPlainObject(wire) ? make(wire) : undefined;
          if (item !== undefined && items.length < max) items.push(item);
        }
        const next = page['nextCursor'];
        cursor = typeof next === 'string' && next !== '' && !seen.has(next) && items.length < max ? next : undefined;
        if (cursor !== undefined) seen.add(cursor);
      } while (cursor !== undefined);
      if (items.length >= max) this.#warn(`${this.label}: ${method} listed more than ${max} items; the rest are left out (maxListItems)`);
      return items;
    })().then(
      (items) => {
        // A list_changed that arrived meanwhile made this answer stale: keep it for this caller only.
        if (this.#lists === generation) (this.#lists as Record<string, unknown>)[slot] = items;
        delete this.#fetching[slot];
        return items;
      },
      (error: unknown) => {
        delete this.#fetching[slot];
        // A downstream list with an unreachable upstream in it lists the others: this one is empty, with a warning.
        this.#warn(`${this.label}: ${method} failed: ${(error as Error).message}`);
        return [];
      },
    );
    this.#fetching[slot] = promise;
    return promise;
  }

  #changed(list: McpProviderList): void {
    const next: Lists = { ...this.#lists };
    if (list === 'tools') delete next.tools;
    if (list === 'prompts') delete next.prompts;
    if (list === 'resources') {
      delete next.resources;
      delete next.templates;
    }
    this.#lists = next;
    this.#fetching = {};
    this.#emit({ type: 'list_changed', list });
  }

  #emit(change: McpProviderChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.#warn(`${this.label}: a change listener failed: ${(error as Error).message}`);
      }
    }
  }

  // ---- items: built from the upstream's list entries (items.ts) ----------------------------

  #tool(wire: Json): McpTool<never, RequestContext> | undefined {
    return toolOf(wire, this.#hooks);
  }

  #resource(wire: Json): McpResource<RequestContext> | undefined {
    return resourceOf(wire, this.#hooks);
  }

  #template(wire: Json): McpResourceTemplate<RequestContext> | undefined {
    return templateOf(wire, this.#hooks);
  }

  #prompt(wire: Json): McpPrompt<RequestContext> | undefined {
    return promptOf(wire, this.#hooks);
  }

  // ---- subscriptions ---------------------------------------------------------------------

  async subscribe(uri: string, ctx: RequestContext): Promise<void> {
    const link = this.#linkFor(ctx);
    const client = await link.connected();
    if (client.serverCapabilities.resources?.subscribe !== true) return;
    // A 2026-07-28 upstream has no sessions: the link's own subscriptions/listen carries the URI.
    if (client.era !== 'legacy') return link.holdResource(uri, holderOf(ctx));
    if (!link.hold(uri, subscriberOf(ctx.sessionId, holderOf(ctx)))) return;
    await this.#sendUntracked(link, 'resources/subscribe', { uri });
  }

  async unsubscribe(uri: string, ctx: RequestContext | undefined): Promise<void> {
    if (ctx === undefined) return; // the session ended: its link closes with it
    // Only a link there is: one opened now to unsubscribe would hold nothing, and outlive a session that ended meanwhile.
    const link = this.#pool.existingLink(ownerOf(ctx));
    if (link === undefined) return;
    if (link.client?.era === 'modern') return link.releaseResource(uri, holderOf(ctx));
    // On a shared link the upstream subscription is everyone's: only the last holder's unsubscribe goes upstream.
    if (!link.release(uri, subscriberOf(ctx.sessionId, holderOf(ctx))) || link.client?.era !== 'legacy') return;
    await this.#sendUntracked(link, 'resources/unsubscribe', { uri });
  }

  // ---- one proxied call --------------------------------------------------------------------

  #call(ctx: RequestContext, method: string, params: Json): Promise<Json> {
    const abort = abortOf(ctx);
    if (abort.aborted) return Promise.reject(new JsonRpcProtocolError(ErrorCode.InternalError, ended(this.label)));
    const link = this.#linkFor(ctx);
    const options: RequestOptions = { timeoutMs: 0 };
    if (ctx.progressToken !== undefined) {
      options.onProgress = ({ progress, total, message }) => void ctx.progress(progress, total, message).catch(() => undefined);
    }
    // A legacy downstream request has no rounds to hold the upstream call across: its own signal
    // (cancellation, disconnect, timeout, shutdown) is the upstream call's, and nothing else is needed.
    if (ctx.era === 'legacy') {
      options.signal = abort;
      return this.#tracked(link, ctx, this.#send(link, method, params, options, ctx));
    }
    // The retry of a 2026-07-28 request whose upstream call waits for input: answer it, await the same call.
    const held = this.#holds.resume(ctx, ctx.requestState[HOLD_KEY], link.key);
    if (held !== undefined) return this.#tracked(link, ctx, held);
    const upstream = new LazyAbort();
    const holdId = this.#holds.newId();
    const onAbort = (): void => {
      // The end of a round (input required) keeps the upstream call for the retry; anything else cancels it.
      const reason: unknown = abort.reason;
      if (reason instanceof Error && reason.name === 'InputRequiredSignal' && this.#holds.isHeld(holdId)) return;
      this.#holds.drop(holdId);
      upstream.abort(reason);
    };
    abort.addEventListener('abort', onAbort, { once: true });
    options.signal = upstream;
    const run = this.#send(link, method, params, options, ctx).finally(() => {
      abort.removeEventListener('abort', onAbort);
      this.#holds.drop(holdId);
    });
    this.#holds.open(holdId, link.key, run, () => upstream.abort(new Error('the downstream client did not come back with the input in time')));
    (ctx.requestState as Json)[HOLD_KEY] = holdId;
    return this.#tracked(link, ctx, run);
  }

  /**
   * The link of the request's owner. A request already over gets none: its session may have ended
   * (a DELETE while a middleware awaited), and a link opened after that would never be closed.
   */
  #linkFor(ctx: RequestContext): UpstreamLink {
    if (abortOf(ctx).aborted) throw new UpstreamError(ended(this.label));
    return this.#pool.linkFor(ownerOf(ctx));
  }

  /**
   * The one place a link learns what is in flight on it (so it is not idle) and when it was last
   * used. A call's `ctx` joins `inFlight`, where requests for input and log messages on the link go;
   * anything else (lists, subscribe) counts in `requests`.
   */
  #tracked(link: UpstreamLink, ctx: RequestContext | undefined, run: Promise<Json>): Promise<Json> {
    const inFlight = link.inFlight;
    const entry = ctx === undefined ? undefined : inFlight.add(new LiveEntry(ctx));
    if (entry === undefined) link.requests++;
    const done = (): void => {
      if (entry !== undefined) inFlight.delete(entry);
      else link.requests--;
      // Idle from the end of its last request, not the start.
      link.lastUsed = Date.now();
    };
    return run.then(
      (result) => (done(), result),
      (error: unknown) => {
        done();
        // A call's failure is the downstream's answer; a list's or subscription's is handled where it was asked.
        throw ctx === undefined ? error : this.#downstreamError(error);
      },
    );
  }

  /** An upstream request on behalf of no downstream call (lists, subscribe): tracked like a call. */
  #sendUntracked(link: UpstreamLink, method: string, params: Json): Promise<Json> {
    return this.#tracked(link, undefined, this.#send(link, method, params, {}));
  }

  /** Sends one upstream request, counted; the downstream's log level goes with it. */
  #send(link: UpstreamLink, method: string, params: Json, options: RequestOptions, ctx?: RequestContext): Promise<Json> {
    const client = link.client;
    if (client === undefined) return link.connected().then((c) => this.#sendOn(link, c, method, params, options, ctx));
    return this.#sendOn(link, client, method, params, options, ctx);
  }

  #sendOn(link: UpstreamLink, client: Client, method: string, params: Json, options: RequestOptions, ctx: RequestContext | undefined): Promise<Json> {
    const level = ctx?.logLevel;
    if (ctx !== undefined && level !== undefined) {
      if (client.era === 'modern') options.meta = { [META_LOG_LEVEL]: level };
      else if (level !== link.logLevel && client.serverCapabilities.logging !== undefined) {
        // A legacy upstream keeps a level per session: set when the downstream's differs (not per call).
        link.logLevel = level;
        this.requests['logging/setLevel'] = (this.requests['logging/setLevel'] ?? 0) + 1;
        return link.request('logging/setLevel', { level }).catch(() => undefined).then(() => this.#count(link, method, params, options));
      }
    }
    return this.#count(link, method, params, options);
  }

  #count(link: UpstreamLink, method: string, params: Json, options: RequestOptions): Promise<Json> {
    this.requests[method] = (this.requests[method] ?? 0) + 1;
    return link.request(method, params, options);
  }

  /** What the downstream client sees of an upstream failure: its JSON-RPC error as sent, or a message naming the upstream. */
  #downstreamError(error: unknown): unknown {
    if (error instanceof McpError) return new JsonRpcProtocolError(error.code, error.message, error.data);
    if (error instanceof UpstreamError) return new JsonRpcProtocolError(ErrorCode.InternalError, error.message);
    if (error instanceof McpTransportError) return new JsonRpcProtocolError(ErrorCode.InternalError, `${this.label}: ${error.message}`);
    return error;
  }

  // ---- what the upstream asks and tells -------------------------------------------------

  /** The upstream asks for input: the downstream request in progress on the same link answers. */
  async #relay(link: UpstreamLink, method: string, params: Json, signal: AbortSignal): Promise<Json> {
    const ctx = this.#target(link);
    if (ctx === undefined && link.inFlight.size > 0) {
      throw new McpError(method, ErrorCode.InternalError, `${method}: several downstream clients have calls in progress on this shared upstream process (spawn: "shared"), and nothing says which one asked; the gateway sends it to none`);
    }
    if (ctx === undefined) throw new McpError(method, ErrorCode.InternalError, `${method}: the gateway has no downstream request in progress on this session to ask`);
    const ask = (c: RequestContext, key: string): Promise<unknown> => {
      const options = { key };
      if (method === 'elicitation/create') return c.elicit(params as never, options);
      if (method === 'sampling/createMessage') return c.sample(params as never, options);
      if (method === 'roots/list') return c.listRoots(options);
      return Promise.reject(new McpError(method, ErrorCode.MethodNotFound, `The gateway does not relay ${method}`));
    };
    if (ctx.era === 'legacy') return (await ask(ctx, method)) as Json;
    // 2026-07-28 downstream: this round ends with input_required; the upstream call waits for the retry.
    const holdId = ctx.requestState[HOLD_KEY];
    return this.#holds.ask(holdId, ctx, signal, ask) as Promise<Json>;
  }

  #notification(link: UpstreamLink, method: string, params: Json): void {
    const list = LIST_OF[method];
    if (list !== undefined) return this.#changed(list);
    if (method === 'notifications/resources/updated' && typeof params['uri'] === 'string') {
      // What this link's upstream session sees is its owner's: the update is for that owner only.
      const to = audienceOf(link, this.#pool.shared);
      return this.#emit(to === undefined ? { type: 'resource_updated', uri: params['uri'] } : { type: 'resource_updated', uri: params['uri'], to });
    }
    if (method === 'notifications/message') {
      // A log line goes to the request in progress on its link; one that comes between requests has nowhere to go.
      const ctx = this.#target(link);
      const level = params['level'];
      if (ctx !== undefined && typeof level === 'string') void ctx.log(level as LoggingLevel, params['data'], typeof params['logger'] === 'string' ? params['logger'] : undefined).catch(() => undefined);
    }
  }

  /**
   * The downstream call a link's request for input or log line belongs to: the latest in progress.
   * On a shared process only when every call in progress is one owner's: with two clients' calls
   * the latest may not be the one that asked, and one client must never get another's.
   */
  #target(link: UpstreamLink): RequestContext | undefined {
    const last = link.inFlight.last()?.value as RequestContext | undefined;
    if (last === undefined || !this.#pool.shared) return last;
    const key = linkKeyOf(ownerOf(last));
    for (const entry of link.inFlight) if (linkKeyOf(ownerOf(entry.value as RequestContext)) !== key) return undefined;
    return last;
  }

  #warn(message: string): void {
    this.#options.onWarning?.(message);
  }
}

/** The downstream request's abort flag: its `signal` would be an AbortController per proxied call. */
function abortOf(ctx: RequestContext): AbortSignalLike {
  return abortFlagOf(ctx) ?? ctx.signal;
}
