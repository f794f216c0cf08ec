import { ClientView, NO_CLIENT } from '../extensions.js';
import { ErrorCode, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import type { JsonRpcId } from '../../jsonrpc/message.js';
import { isStoreUnavailableError, storeUnavailableProtocolError } from '../../stores/errors.js';
import type { LazyAbort } from '../request/abort.js';
import type { ContextHost } from '../request/context.js';
import { contentDowngrade } from '../wire/downgrade.js';
import type { EraInfo } from './era-info.js';
import { OutboundRequests } from '../request/outbound.js';
import type { LoggingLevel, ServerCapabilities } from '../../wire-types/index.js';
import { LATEST_LEGACY_VERSION, type ProtocolVersion } from '../wire/versions.js';
import type { MethodFacts } from '../wire/method-facts.js';
import type { RecordChangeListener, SessionRecord } from '../wire/session-record.js';
import type { ServerScope } from './server-scope.js';
import { utf8Length } from '../../util/bytes.js';

/** What a request may change in its session's record (the dispatcher applies it). */
export type RecordChange =
  | { readonly type: 'negotiated'; readonly record: SessionRecord }
  | { readonly type: 'logLevel'; readonly level: LoggingLevel }
  | { readonly type: 'subscribe'; readonly uri: string }
  | { readonly type: 'unsubscribe'; readonly uri: string };

const identity = (_method: MethodFacts, result: unknown): unknown => result;

/** One finalize step per revision: the content downgrade, or nothing. */
const finalizers = new Map<string, EraInfo['finalize']>();
export function finalizerFor(version: ProtocolVersion): EraInfo['finalize'] {
  let finalize = finalizers.get(version);
  if (finalize === undefined) finalizers.set(version, (finalize = contentDowngrade(version) ?? identity));
  return finalize;
}

/**
 * One session (a stdio process, a legacy HTTP session): its negotiated record,
 * which is plain data, and the live parts that cannot leave this process
 * (server→client requests awaiting an answer, aborts of in-flight requests).
 * Once negotiated it is also the era of the session's requests.
 */
export class SessionScope implements ContextHost, EraInfo {
  // EraInfo: constant for a session (on the prototype: nothing per session).
  get era(): 'legacy' {
    return 'legacy';
  }
  get broker(): undefined {
    return undefined;
  }
  /** A session's requests take the session's threshold (`sessionLogLevel`), not one of their own. */
  get logLevel(): undefined {
    return undefined;
  }
  /** Valid once `negotiated`. */
  version: ProtocolVersion = LATEST_LEGACY_VERSION;
  client: EraInfo['client'] = NO_CLIENT;
  finalize: EraInfo['finalize'] = identity;
  readonly #server: ServerScope;
  readonly #onChange: RecordChangeListener | undefined;
  /** The record as negotiated and changed, except `subscriptions`, which `#subscribed` holds. */
  #base: SessionRecord | undefined;
  /** The whole record, built when read and dropped at every change. */
  #record: SessionRecord | undefined;
  // Created on first use: an idle session costs a few hundred bytes.
  #subscribed: Set<string> | undefined;
  #bytes = 0;
  #outbound: OutboundRequests | undefined;
  #inFlight: Map<JsonRpcId, LazyAbort> | undefined;
  /** Record changes in order, when someone listens to them. */
  #changes: Promise<unknown> | undefined;

  constructor(server: ServerScope, record: SessionRecord | undefined, onChange: RecordChangeListener | undefined) {
    this.#server = server;
    this.#onChange = onChange;
    if (record !== undefined) this.#apply({ type: 'negotiated', record });
  }

  /** The negotiated record; undefined before `initialize` (and after close). Built when read. */
  get record(): SessionRecord | undefined {
    const base = this.#base;
    if (base === undefined || this.#record !== undefined) return this.#record;
    const subscriptions = this.#subscribed === undefined || this.#subscribed.size === 0 ? NONE : Object.freeze([...this.#subscribed]);
    return (this.#record = Object.freeze({ ...base, subscriptions }));
  }

  /** What `initialize` answered: only these lists send `list_changed` to the session. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#base?.serverCapabilities;
  }

  get negotiated(): boolean {
    return this.#base !== undefined;
  }

  /** ContextHost: the session's log threshold (not stripped from the .d.ts: the interface keeps it) */
  get sessionLogLevel(): LoggingLevel | undefined {
    return this.#base?.logLevel;
  }

  get clientRequestTimeoutMs(): number {
    return this.#server.clientRequestTimeoutMs;
  }

  /** Server→client requests of this session. */
  get outbound(): OutboundRequests {
    const limits = this.#server.options.limits;
    return (this.#outbound ??= new OutboundRequests({ maxPending: limits?.maxPendingClientRequests, maxPendingBytes: limits?.maxPendingClientRequestBytes }));
  }

  /** @internal */
  get pendingOutbound(): OutboundRequests | undefined {
    return this.#outbound;
  }

  isSubscribed(uri: string): boolean {
    return this.#subscribed?.has(uri) === true;
  }

  /** How many resource URIs the session subscribed to, and their bytes (UTF-8). */
  get subscriptionCount(): number {
    return this.#subscribed?.size ?? 0;
  }

  get subscriptionBytes(): number {
    return this.#bytes;
  }

  /**
   * Applies one change of the record. With a change listener, changes run one
   * at a time and each waits for the listener; when it fails the record goes
   * back to what it was and the request fails with -32603. Without one the
   * change is applied at once (undefined is returned).
   */
  change(change: RecordChange, method: string): Promise<void> | undefined {
    const listener = this.#onChange;
    if (listener === undefined) {
      this.#apply(change);
      return undefined;
    }
    const run = async (): Promise<void> => {
      const before = { base: this.#base, subscribed: this.#subscribed, bytes: this.#bytes, record: this.#record, client: this.client, version: this.version, finalize: this.finalize };
      // Copy on write: the set before the change must survive a rollback.
      if (this.#subscribed !== undefined && change.type !== 'negotiated') this.#subscribed = new Set(this.#subscribed);
      this.#apply(change);
      try {
        await listener(this.record!);
      } catch (error) {
        this.#base = before.base;
        this.#subscribed = before.subscribed;
        this.#bytes = before.bytes;
        this.#record = before.record;
        this.client = before.client;
        this.version = before.version;
        this.finalize = before.finalize;
        // The shared store is down: the client retries later (503), nothing to log per request.
        if (isStoreUnavailableError(error)) throw storeUnavailableProtocolError(error);
        this.#server.logger?.error?.(`mcpkit: saving the session record after ${method} failed`, error);
        throw new JsonRpcProtocolError(ErrorCode.InternalError, `Internal error: the session could not be saved after ${method}, so nothing changed; retry the request`);
      }
    };
    const next = (this.#changes ?? Promise.resolve()).then(run);
    // The chain only keeps changes in order: `next` carries the failure (logged above) to its caller.
    this.#changes = next.catch(() => undefined);
    return next;
  }

  #apply(change: RecordChange): void {
    switch (change.type) {
      case 'negotiated': {
        const record = change.record;
        this.#base = record;
        this.#record = record;
        this.version = record.protocolVersion as ProtocolVersion;
        this.finalize = finalizerFor(this.version);
        this.client = new ClientView(record.clientInfo, record.clientCapabilities);
        this.#subscribed = undefined;
        this.#bytes = 0;
        for (const uri of record.subscriptions) this.#add(uri);
        return;
      }
      case 'logLevel':
        this.#base = { ...this.#base!, logLevel: change.level };
        break;
      case 'subscribe': {
        const limits = this.#server.subscriptionLimits;
        if (this.isSubscribed(change.uri)) return;
        const count = this.subscriptionCount;
        if (count >= limits.maxSubscriptions) {
          throw limitError(`Too many subscriptions: this session already has ${count} (the limit is ${limits.maxSubscriptions}); unsubscribe from some first`, 'maxSubscriptions');
        }
        if (this.#bytes + utf8Length(change.uri) > limits.maxSubscriptionBytes) {
          throw limitError(`Too many subscriptions: this session's subscribed URIs would hold more than ${limits.maxSubscriptionBytes} bytes; unsubscribe from some first`, 'maxSubscriptionBytes');
        }
        this.#add(change.uri);
        break;
      }
      case 'unsubscribe':
        if (this.#subscribed?.delete(change.uri) !== true) return;
        this.#bytes -= utf8Length(change.uri);
        break;
    }
    this.#record = undefined;
  }

  #add(uri: string): void {
    const set = (this.#subscribed ??= new Set());
    if (set.has(uri)) return;
    set.add(uri);
    this.#bytes += utf8Length(uri);
  }

  /** @internal tracks a request that `notifications/cancelled` may abort; false when its id is already in flight */
  track(id: JsonRpcId, abort: LazyAbort): boolean {
    const map = (this.#inFlight ??= new Map());
    if (map.has(id)) return false;
    map.set(id, abort);
    return true;
  }

  /** @internal */
  untrack(id: JsonRpcId): void {
    this.#inFlight?.delete(id);
  }

  /** @internal the in-flight request with this id */
  inFlight(id: JsonRpcId): LazyAbort | undefined {
    return this.#inFlight?.get(id);
  }

  get inFlightCount(): number {
    return this.#inFlight?.size ?? 0;
  }

  /** Ends the live parts: aborts in-flight requests, rejects pending server→client requests, drops the record. */
  close(reason: string, abortReason: unknown): void {
    for (const abort of [...(this.#inFlight?.values() ?? [])]) abort.abort(abortReason);
    this.#outbound?.rejectAll(reason);
    // The session's subscriptions end with it.
    this.#base = undefined;
    this.#record = undefined;
    this.#subscribed = undefined;
    this.#bytes = 0;
  }
}

function limitError(message: string, limit: string): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InternalError, message, { limit });
}

const NONE: readonly string[] = Object.freeze([]);
