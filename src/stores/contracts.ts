/**
 * Store contracts: the state that must outlive one HTTP request. The memory
 * implementations in `./memory.ts` are the defaults; other backends implement
 * the same interfaces. Every method may answer synchronously or with a promise;
 * callers always await.
 */
import type { JsonRpcMessage } from '../jsonrpc/message.js';

export type MaybePromise<T> = T | Promise<T>;

/**
 * Live sessions by id. Entries expire after an idle period chosen by the store;
 * the store asks its expiry listener first, so a session still in use (an open
 * stream, a running request) is kept.
 *
 * Contract:
 * - `get` of an unknown, deleted or expired id answers `undefined`.
 * - `touch` of an unknown id does nothing.
 * - `size` counts live entries only.
 * - Expiry calls the listener registered with `onExpire`; when it answers
 *   `false` the entry stays and counts as touched, otherwise it is removed.
 *   `delete` never calls the listener.
 */
export interface SessionStore<T> {
  get(id: string): MaybePromise<T | undefined>;
  set(id: string, value: T): MaybePromise<void>;
  delete(id: string): MaybePromise<boolean>;
  touch(id: string): MaybePromise<void>;
  size(): MaybePromise<number>;
  /** Every live entry (used at shutdown). */
  values(): MaybePromise<Iterable<T>>;
  /** Registers the single expiry listener (a later call replaces it). */
  onExpire(listener: (id: string, value: T) => boolean): void;
  /** Stops timers; the store is not used afterwards. */
  close?(): MaybePromise<void>;
}

/** Receives one replayed event. */
export type ReplayWriter = (eventId: string, message: JsonRpcMessage) => MaybePromise<void>;

/**
 * The SSE event log that makes streams resumable (`Last-Event-ID`). Every
 * stream belongs to one owner (an HTTP session id); quotas are per owner and
 * `release` drops everything an owner holds.
 *
 * Contract:
 * - `append` records one message on a stream of `owner` and answers its event
 *   id. Called without a message it records a position only (the priming event
 *   a client may resume from); replay skips such positions. A stream id belongs
 *   to the owner that first appended to it.
 * - Event ids are unique across all streams and identify their stream, so
 *   `replayAfter` needs nothing else. An id is never reused, even after its
 *   stream was dropped.
 * - `replayAfter` writes, in order, every message recorded on that stream after
 *   `lastEventId`, then answers the stream id. It answers `undefined`, writing
 *   nothing, when the id is unknown, belongs to another owner, or when messages
 *   after it were dropped (a partial replay would silently lose messages).
 * - `client` names who the owner acts for (the session's quota owner: principal
 *   or address); an owner keeps the client it was first appended with.
 * - Storage is bounded in bytes per stream, per owner, per client and in total.
 *   Making room drops the writing owner's own oldest events, never another
 *   owner's; over the client quota it drops that client's owners' least recently
 *   written streams, never another client's. When nothing is left to drop, the
 *   new event is not kept (its stream is then resumable only from that event on).
 * - `release` forgets every stream of `owner` (its session ended).
 * - Records are plain strings and numbers, so a shared store (e.g. Redis) can hold them.
 *
 * Following (optional, for stores shared by several instances, where the
 * request writing a stream may run on another instance than the client's GET):
 * - `finish` records that nothing more will be appended to that stream (its
 *   request was answered: the final response is its last event). Nothing is
 *   appended to a finished stream. Unknown streams and other owners' are ignored.
 * - `follow` is `replayAfter` that goes on: it writes what was recorded after
 *   `lastEventId`, answers (with the stream id and `done`) once that is written,
 *   then writes each new event as it is recorded, in order, never twice, until
 *   `done` settles: `finished` after the last event of a finished stream,
 *   `aborted` when `signal` aborts or `write` throws, `dropped` when events the
 *   follower had not written yet were dropped or the stream was released (the
 *   caller ends the response; resuming from its last written id is then refused,
 *   never partial), `unavailable` when the store could not be read (a later
 *   resumption may work). `done` never rejects. It answers `undefined`, writing
 *   nothing, exactly when `replayAfter` would.
 */
export interface EventStore {
  append(owner: string, streamId: string, message?: JsonRpcMessage, client?: string): MaybePromise<string>;
  replayAfter(owner: string, lastEventId: string, write: ReplayWriter): MaybePromise<string | undefined>;
  release(owner: string): MaybePromise<void>;
  finish?(owner: string, streamId: string): MaybePromise<void>;
  follow?(owner: string, lastEventId: string, write: ReplayWriter, signal: AbortSignal): MaybePromise<StreamFollow | undefined>;
}

/** Why following a stream stopped (see EventStore.follow). */
export type FollowEnd = 'finished' | 'aborted' | 'dropped' | 'unavailable';

/** A stream being followed: its id, and when following stopped. */
export interface StreamFollow {
  readonly streamId: string;
  readonly done: Promise<FollowEnd>;
}

/** The bounds of an event store, named as MemoryEventStore's options (the contract suite passes them to a factory). */
export interface EventStoreLimits {
  /** Bytes kept per stream; its oldest events go first (default 1 MiB). */
  maxBytesPerStream?: number;
  /** Bytes kept per owner (an HTTP session); its least recently written streams go first (default 4 MiB). */
  maxBytesPerOwner?: number;
  /** Bytes kept per client (all owners appended with that client); its least recently written streams go first (default 16 MiB). */
  maxBytesPerClient?: number;
  /** Bytes kept in total (default 64 MiB); making room never drops another owner's events. */
  maxBytes?: number;
  /** Events kept per stream (default 1,000). */
  maxEventsPerStream?: number;
  /** Events kept in total (default 50,000); making room never drops another owner's events. */
  maxEvents?: number;
}

/** One owner's view of an EventStore: what an SSE stream records into. */
export interface EventLog {
  append(streamId: string, message?: JsonRpcMessage): MaybePromise<string>;
  /** Its stream's last event is recorded (EventStore.finish); only where another instance may follow it. */
  finish?(streamId: string): MaybePromise<void>;
}
