/**
 * GET on the MCP endpoint: the session's standalone SSE stream, or, with
 * Last-Event-ID, the resumption of any of the session's streams.
 */
import { ErrorCode } from '../../jsonrpc/errors.js';
import type { AuthInfo } from '../../protocol/connection.js';
import type { JsonRpcMessage } from '../../jsonrpc/message.js';
import type { EventStore } from '../../stores/contracts.js';
import type { EngineContext } from './context.js';
import { cannotResume, httpError, methodNotAllowed, missingSession, sessionNotFound } from './errors.js';
import { acceptedTypes, ASSUMED_PROTOCOL_VERSION } from './headers.js';
import { paramsEra } from '../../protocol/wire/era.js';
import { definesSsePriming } from '../../protocol/wire/versions.js';
import { checkProtocolVersion } from './admission.js';
import type { HttpSession } from './sessions.js';
import { SSE_HEADERS, SseConnection, sseEvent, type EventStream } from './sse.js';
import type { HttpRequest, HttpResponse } from './types.js';

export async function handleGet(ctx: EngineContext, request: HttpRequest, authInfo: AuthInfo | undefined): Promise<HttpResponse> {
  // Without sessions there is nothing to push to (2026-07-28 has no GET stream).
  if (ctx.stateless) return methodNotAllowed('GET', 'POST');
  if (!acceptedTypes(request.headers['accept']).sse) {
    return httpError(406, ErrorCode.InvalidRequest, 'Not acceptable: GET opens an SSE stream; send "Accept: text/event-stream"');
  }
  const id = request.headers['mcp-session-id'];
  if (id === undefined) {
    const version = request.headers['mcp-protocol-version'];
    if (paramsEra(undefined, version) === 'modern') return methodNotAllowed('GET', 'POST');
    return missingSession();
  }
  const session = await ctx.sessions.get(id, authInfo);
  if (session === undefined || session.kind !== 'streamable') return sessionNotFound();
  const badVersion = checkProtocolVersion(ctx, request);
  if (badVersion !== undefined) return badVersion;
  ctx.sessions.touch(session);

  const lastEventId = request.headers['last-event-id'];
  const resuming = lastEventId !== undefined && ctx.eventStore !== undefined;
  // Messages for the GET stream are delivered here from now on, whichever instance produces them (not so for a request's stream resumed here).
  await ctx.sessions.holdStream(session, resuming ? lastEventId : undefined);
  if (resuming) return resume(ctx, ctx.eventStore, request, session, lastEventId);

  const stream = session.standalone(ctx.sessions.standaloneId(session));
  if (stream.attached) return standaloneConflict();
  const connection = new SseConnection();
  stream.attach(connection);
  connection.keepAliveEvery(ctx.keepAliveMs);
  // Clients of revisions before 2025-11-25 cannot parse the empty-data priming event.
  if (definesSsePriming(request.headers['mcp-protocol-version'] ?? ASSUMED_PROTOCOL_VERSION)) stream.prime();
  onClientGone(request, stream, connection);
  return sseResponse(session, connection);
}

async function resume(ctx: EngineContext, store: EventStore, request: HttpRequest, session: HttpSession, lastEventId: string): Promise<HttpResponse> {
  // A request's stream this instance does not hold may be written by another one (the session backend follows it).
  const remote = ctx.sessions.resumeRemote(session, lastEventId, request, ctx.keepAliveMs);
  if (remote !== undefined) {
    const followed = await remote;
    if (followed !== undefined) return followed;
  }
  const missed: [string, JsonRpcMessage][] = [];
  const streamId = await store.replayAfter(session.id, lastEventId, (eventId, message) => {
    missed.push([eventId, message]);
  });
  // Another session's stream is as unknown to this one as a dropped event: never a partial replay.
  if (streamId === undefined) return cannotResume(lastEventId);
  const connection = new SseConnection();
  const written = new Set<string>();
  const write = (eventId: string, message: JsonRpcMessage): void => {
    if (written.has(eventId)) return;
    written.add(eventId);
    connection.write(sseEvent(JSON.stringify(message), eventId));
  };

  const standaloneId = ctx.sessions.standaloneId(session);
  const isStandalone = streamId === standaloneId;
  const live = isStandalone ? session.standalone(standaloneId) : session.live.get(streamId);
  if (live === undefined) {
    // The request already finished: replay what was missed, then end.
    for (const [eventId, message] of missed) write(eventId, message);
    connection.end();
    return sseResponse(session, connection);
  }
  if (isStandalone && live.attached) return standaloneConflict();
  await live.resume(connection, written, async () => {
    for (const [eventId, message] of missed) write(eventId, message);
    // Events recorded after the first replay and before the stream held its live ones.
    const more = await store.replayAfter(session.id, missed.at(-1)?.[0] ?? lastEventId, write);
    // Dropped meanwhile: end here, so the client's next resumption is refused rather than silently short.
    if (more === undefined) connection.end();
  });
  if (isStandalone) connection.keepAliveEvery(ctx.keepAliveMs);
  onClientGone(request, live, connection);
  return sseResponse(session, connection);
}

function onClientGone(request: HttpRequest, stream: EventStream, connection: SseConnection): void {
  if (request.signal.aborted) stream.detach(connection);
  else request.signal.addEventListener('abort', () => stream.detach(connection), { once: true });
}

function sseResponse(session: HttpSession, connection: SseConnection): HttpResponse {
  return { status: 200, headers: { ...SSE_HEADERS, 'mcp-session-id': session.id }, stream: connection };
}

function standaloneConflict(): HttpResponse {
  return httpError(409, ErrorCode.InvalidRequest, 'Conflict: this session already has an open GET stream; only one standalone stream per session is allowed');
}
