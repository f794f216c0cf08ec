/**
 * One subscriber shape for every tracing channel the instrumentation reads: a
 * message is begun at `start` and settled once, at `asyncEnd` or, when the traced
 * call threw before returning a promise, at `end` (then `message.error` is set and
 * no `asyncEnd` follows).
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel, type TracingChannelSubscribers } from 'node:diagnostics_channel';

export interface ChannelFollower<M extends object, S> {
  readonly start: (message: M) => void;
  readonly settled: (message: M) => void;
  /** Runs the traced call inside `bind(message)`: spans its code starts are children of the message's span. */
  readonly store?: { readonly scope: AsyncLocalStorage<S>; readonly bind: (message: M) => S };
}

/** Subscribes `follower` to the tracing channel `name`; returns the undo. */
export function followChannel<M extends object, S = never>(name: string, follower: ChannelFollower<M, S>): () => void {
  const channel = tracingChannel<unknown, M>(name);
  const { store } = follower;
  if (store !== undefined) channel.start.bindStore(store.scope, store.bind);
  const subscribers: TracingChannelSubscribers<M> = {
    start: follower.start,
    end: (message) => {
      if ((message as { error?: unknown }).error !== undefined) follower.settled(message);
    },
    asyncStart: () => undefined,
    asyncEnd: follower.settled,
    error: () => undefined,
  };
  channel.subscribe(subscribers);
  return () => {
    channel.unsubscribe(subscribers);
    if (store !== undefined) channel.start.unbindStore(store.scope);
  };
}
