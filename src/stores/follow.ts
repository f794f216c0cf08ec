/**
 * `EventStore.follow` for any store that can read a stream after an event id
 * and tell when it changed: watch first (so nothing recorded after the first
 * read is missed), write what was missed, then read after the last written id
 * on every change until the stream is finished, dropped or the follower leaves.
 */
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import type { FollowEnd, MaybePromise, ReplayWriter, StreamFollow } from './contracts.js';

/** A read of a stream after some event: the messages recorded since (id, message) and whether it is finished. */
export interface StreamRead {
  readonly events: readonly (readonly [string, JsonRpcMessage])[];
  readonly finished: boolean;
}

/** `<streamId>:<sequence>` (the sequence at most 15 digits), or undefined. */
export function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const colon = eventId.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const digits = eventId.slice(colon + 1);
  if (!/^\d{1,15}$/.test(digits)) return undefined;
  return { streamId: eventId.slice(0, colon), seq: Number(digits) };
}

export interface FollowSource {
  readonly streamId: string;
  /** What was recorded after sequence `after`; undefined when that cannot be resumed (unknown, another owner's, dropped). */
  read(after: number): MaybePromise<StreamRead | undefined>;
  /** Calls `changed` on every change of the stream (more may be spurious); answers the function that stops it. */
  watch(changed: () => void): MaybePromise<() => void>;
}

/** `replayAfter` for a store that reads a stream by sequence: `read(streamId, after)`. */
export async function replayStream(
  read: (streamId: string, after: number) => MaybePromise<StreamRead | undefined>,
  lastEventId: string,
  write: ReplayWriter,
): Promise<string | undefined> {
  const parsed = parseEventId(lastEventId);
  if (parsed === undefined) return undefined;
  const missed = await read(parsed.streamId, parsed.seq);
  if (missed === undefined) return undefined;
  for (const [eventId, message] of missed.events) await write(eventId, message);
  return parsed.streamId;
}

/** `follow` for a store that reads a stream by sequence and tells when it changed. */
export async function followStream(
  read: (streamId: string, after: number) => MaybePromise<StreamRead | undefined>,
  watch: (streamId: string, changed: () => void) => MaybePromise<() => void>,
  lastEventId: string,
  write: ReplayWriter,
  signal: AbortSignal,
): Promise<StreamFollow | undefined> {
  const parsed = parseEventId(lastEventId);
  if (parsed === undefined) return undefined;
  const { streamId } = parsed;
  return followFrom({ streamId, read: (after) => read(streamId, after), watch: (changed) => watch(streamId, changed) }, parsed.seq, write, signal);
}

async function followFrom(source: FollowSource, from: number, write: ReplayWriter, signal: AbortSignal): Promise<StreamFollow | undefined> {
  let changed = false;
  let wake: (() => void) | undefined;
  const stop = await source.watch(() => {
    changed = true;
    wake?.();
  });
  let after = from;
  let read: StreamRead | undefined;
  try {
    read = await source.read(after);
  } catch (error) {
    stop();
    throw error;
  }
  if (read === undefined) {
    stop();
    return undefined;
  }
  const writeAll = async (events: StreamRead['events']): Promise<void> => {
    for (const [eventId, message] of events) {
      await write(eventId, message);
      after = parseEventId(eventId)?.seq ?? after;
    }
  };
  const nextChange = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        wake = undefined;
        signal.removeEventListener('abort', done);
        resolve();
      };
      wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
  // The replay is written before answering, so the caller knows it went out first.
  let replayed = true;
  try {
    await writeAll(read.events);
  } catch {
    replayed = false;
  }
  const following = async (): Promise<FollowEnd> => {
    for (;;) {
      if (signal.aborted) return 'aborted';
      if (!changed) await nextChange();
      if (signal.aborted) return 'aborted';
      changed = false;
      let next: StreamRead | undefined;
      try {
        next = await source.read(after);
      } catch {
        return 'unavailable';
      }
      if (next === undefined) return 'dropped';
      try {
        await writeAll(next.events);
      } catch {
        return 'aborted';
      }
      if (next.finished) return 'finished';
    }
  };
  const end: Promise<FollowEnd> = !replayed ? Promise.resolve('aborted') : read.finished ? Promise.resolve('finished') : following();
  const done = end.finally(() => {
    try {
      stop();
    } catch {
      // Stopping the watch must not turn `done` into a rejection.
    }
  });
  return { streamId: source.streamId, done };
}
