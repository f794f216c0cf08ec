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
 * The SSE event log that makes streams resumable (`Last-Event-ID`).
 *
 * Contract:
 * - `append` records one message on a stream and answers its event id. Called
 *   without a message it records a position only (the priming event a client
 *   may resume from); replay skips such positions.
 * - Event ids are unique across all streams and identify their stream, so
 *   `replayAfter` needs nothing else.
 * - `replayAfter` writes, in order, every message recorded on that stream after
 *   `lastEventId`, then answers the stream id. It answers `undefined`, writing
 *   nothing, when the id is unknown or when messages after it were evicted (a
 *   partial replay would silently lose messages).
 * - Storage is bounded; the oldest events go first.
 */
export interface EventStore {
  append(streamId: string, message?: JsonRpcMessage): MaybePromise<string>;
  replayAfter(lastEventId: string, write: ReplayWriter): MaybePromise<string | undefined>;
}
