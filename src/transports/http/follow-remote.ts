/**
 * Resuming a stream that another instance writes (the `cluster` option): what
 * the client missed comes from the shared event store, then the stream is
 * followed there to its last event, since a dropped connection is not a
 * cancellation and the request goes on where it runs. When that instance dies
 * before answering (its liveness lapses), the client gets a JSON-RPC error for
 * the request instead of a stream that never ends.
 */
import type { JsonRpcId, JsonRpcMessage } from '../../jsonrpc/message.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import type { EventStore, StreamFollow } from '../../stores/contracts.js';
import { parseEventId } from '../../stores/follow.js';
import { SseConnection, sseEvent } from './sse.js';
import { streamOrigin } from './stream-origin.js';
import { unrefTimer } from '../../util/timers.js';

/** What following needs of the cluster: which instance this is, and whether another still runs. */
export interface ClusterLiveness {
  readonly instanceId: string;
  readonly incarnation: string;
  alive(instanceId: string, incarnation?: string): Promise<boolean>;
  readonly livenessCheckMs: number | undefined;
}

/**
 * Follows `lastEventId`'s stream onto a new connection; undefined when it
 * cannot be resumed from there (unknown, another session's, events dropped).
 */
export async function followRemote(
  store: EventStore & Required<Pick<EventStore, 'follow'>>,
  cluster: ClusterLiveness,
  owner: string,
  lastEventId: string,
  signal: AbortSignal,
  /** Another resumption of the stream took over (`ClusterSessionRegistry.follower`): this response ends. */
  takeover?: { readonly signal: AbortSignal; release(): void },
): Promise<SseConnection | undefined> {
  const connection = new SseConnection();
  const answered = new Set<JsonRpcId>();
  let last = lastEventId;
  let lastSeq = sequenceOf(lastEventId);
  const write = (eventId: string, message: JsonRpcMessage): void => {
    // The final re-read after a takeover may meet what the follow already wrote.
    const seq = sequenceOf(eventId);
    if (seq <= lastSeq) return;
    lastSeq = seq;
    last = eventId;
    const answer = message as { id?: JsonRpcId; method?: unknown };
    if (answer.method === undefined && answer.id !== undefined && answer.id !== null) answered.add(answer.id);
    connection.write(sseEvent(JSON.stringify(message), eventId));
  };
  const following = new AbortController();
  const leave = (): void => following.abort();
  signal.addEventListener('abort', leave, { once: true });
  takeover?.signal.addEventListener('abort', leave, { once: true });
  const stopListening = (): void => {
    signal.removeEventListener('abort', leave);
    takeover?.signal.removeEventListener('abort', leave);
    takeover?.release();
  };
  let follow: StreamFollow | undefined;
  try {
    follow = await store.follow(owner, lastEventId, write, following.signal);
  } finally {
    if (follow === undefined) stopListening();
  }
  if (follow === undefined) return undefined;

  const origin = streamOrigin(follow.streamId);
  // This run's own streams finish here; any other run's may die (an earlier run of this instance already did).
  const writer = origin !== undefined && !(origin.instance === cluster.instanceId && origin.incarnation === cluster.incarnation) ? origin : undefined;
  let lost = false;
  let check: ReturnType<typeof setInterval> | undefined;
  const checkWriter = async (): Promise<void> => {
    if (writer === undefined || lost || following.signal.aborted || (await cluster.alive(writer.instance, writer.incarnation))) return;
    lost = true;
    following.abort();
  };
  const every = cluster.livenessCheckMs;
  if (writer !== undefined && every !== undefined) {
    void checkWriter();
    check = setInterval(() => void checkWriter(), every);
    unrefTimer(check);
  }

  // Finished, dropped (a later resumption from here is refused, never partial) or unavailable (a later one may work): the response ends.
  const settle = async (): Promise<void> => {
    if (check !== undefined) clearInterval(check);
    stopListening();
    if (signal.aborted) {
      connection.drop();
      return;
    }
    if (lost && writer !== undefined) {
      // Whatever the dead instance recorded before it died, then an error for what it never answered.
      try {
        await store.replayAfter(owner, last, write);
      } catch {
        // Unreadable now: the error below still ends the request for the client.
      }
      const id = writer.requestId;
      if (id !== undefined && !answered.has(id)) connection.write(sseEvent(JSON.stringify(instanceLost(id, writer.instance))));
    }
    connection.end();
  };
  void follow.done.then(settle);
  return connection;
}

/** The error a request gets when the instance running it stopped before answering. */
export function instanceLost(id: JsonRpcId, instance: string): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: ErrorCode.InternalError,
      message:
        `Instance lost: the server instance running this request ("${instance}") stopped before answering; ` +
        'its outcome is unknown (it may have had effects), so re-issue it only if that is safe',
      data: { instance },
    },
  };
}

const sequenceOf = (eventId: string): number => parseEventId(eventId)?.seq ?? -1;

export const isFollowable = (store: EventStore): store is EventStore & Required<Pick<EventStore, 'follow'>> => store.follow !== undefined;
