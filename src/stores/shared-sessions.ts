/**
 * What several instances share so that they act as one HTTP server: legacy
 * sessions as serialisable records (SharedSessionStore) and a channel between
 * instances (ClusterChannel). `mcpkit/redis` implements both on Redis; the
 * HTTP engine takes them as its `cluster` option. Only plain JSON crosses
 * these contracts: live sessions (connections, streams) never leave a process.
 */
import type { JsonRpcMessage } from '../jsonrpc/message.js';

/**
 * A session record as stores hold it: the protocol's `SessionRecord`, read as
 * JSON (this layer sits below the protocol; the connection that restores a
 * record validates it). Stores index `subscriptions`.
 */
export interface StoredSessionRecord {
  readonly v: 1;
  readonly protocolVersion: string;
  readonly clientInfo?: object;
  readonly clientCapabilities: object;
  readonly serverCapabilities: object;
  readonly logLevel?: string;
  readonly subscriptions: readonly string[];
}

/** One legacy session as every instance sees it: plain JSON. */
export interface SharedSession {
  /** What `initialize` negotiated and later requests changed. */
  readonly record: StoredSessionRecord;
  /** The principal the session is bound to (`principalOf(authInfo)`); absent: unauthenticated. */
  readonly principal?: string;
  /** Creation time, epoch ms. */
  readonly createdAt: number;
  /** Whom the session counts against for `maxSessionsPerClient` (its principal, else its client address). */
  readonly owner?: string;
  /** The instance holding the session's GET stream, if one was opened. */
  readonly holder?: string;
  /** Bumped at every change of the record, so an instance knows when its live copy is stale. */
  readonly rev: number;
}

/**
 * Sessions by id and principal. Every method may fail with a
 * StoreUnavailableError (the engine answers 503 with Retry-After).
 *
 * Contract:
 * - `create` stores a new session with the idle TTL; false when the id exists.
 * - `load` answers the session and restarts its idle TTL (touch on use);
 *   undefined when unknown, deleted, expired or bound to another principal.
 * - `update` replaces the record atomically, bumps `rev`, keeps the TTL;
 *   `hold` names the instance holding the GET stream. Both answer undefined
 *   when the session is gone.
 * - `delete` removes the session and its resource subscriptions; answers what
 *   it removed.
 * - `count` (optional) counts live sessions per owner and in total; a deleted
 *   or expired session no longer counts.
 */
export interface SharedSessionStore {
  create(id: string, principal: string | undefined, session: SharedSession): Promise<boolean>;
  load(id: string, principal: string | undefined): Promise<SharedSession | undefined>;
  update(id: string, principal: string | undefined, record: StoredSessionRecord): Promise<SharedSession | undefined>;
  hold(id: string, principal: string | undefined, instanceId: string): Promise<SharedSession | undefined>;
  delete(id: string, principal: string | undefined): Promise<SharedSession | undefined>;
  /** Answers when the store is reachable, else throws (StoreUnavailableError): checked before a session opens. */
  ping(): Promise<void>;
  /** Session ids subscribed to `uri` (the reverse index). */
  subscribers(uri: string): Promise<string[]>;
  /**
   * Live sessions `owner` holds (sessions created with that `owner`) and live
   * sessions in total, across every instance: the engine refuses a new session
   * when either is at its maximum. Without it, quotas count per instance.
   */
  count?(owner: string): Promise<{ owner: number; total: number }>;
  /** Idle time before a session expires, ms. */
  readonly idleTimeoutMs: number;
}

/** What one instance tells another about a session. */
export type ClusterMessage =
  /** A client's answer to a server→client request made on the target instance. */
  | { readonly type: 'answer'; readonly session: string; readonly message: JsonRpcMessage }
  /** notifications/cancelled: every instance aborts the request if it runs there. */
  | { readonly type: 'cancel'; readonly session: string; readonly message: JsonRpcMessage }
  /** A message for the session's GET stream, to the instance holding it. */
  | { readonly type: 'stream'; readonly session: string; readonly message: JsonRpcMessage }
  /** The session's record changed: drop live copies built from an older one. */
  | { readonly type: 'changed'; readonly session: string; readonly rev: number }
  /** The session ended (DELETE, expiry): close its streams everywhere. */
  | { readonly type: 'ended'; readonly session: string };

export type ClusterListener = (message: ClusterMessage) => void;

/**
 * Messages between instances, at most once (pub/sub): a message to an
 * instance that died is lost, and its sender decides what that means.
 */
export interface ClusterChannel {
  /** This instance: what `send` addresses. */
  readonly instanceId: string;
  /** To one instance. */
  send(instanceId: string, message: ClusterMessage): Promise<void>;
  /** To every instance, this one included. */
  broadcast(message: ClusterMessage): Promise<void>;
  /** Receives what is sent to this instance and every broadcast; resolves once subscribed. */
  listen(listener: ClusterListener): Promise<() => void>;
  /** This run of this instance (changes at every start); with `alive`. */
  readonly incarnation?: string;
  /**
   * Whether `instanceId` still runs (that run of it, given `incarnation`):
   * false once it stopped or crashed. Optional; without it every instance is
   * presumed alive, and a request whose instance died leaves its resumed
   * stream open until the client gives up.
   */
  alive?(instanceId: string, incarnation?: string): Promise<boolean>;
  /** How often `alive` is worth asking again while waiting on another instance (ms). */
  readonly livenessCheckMs?: number;
  close?(): Promise<void>;
}
