/**
 * POST on the MCP endpoint, as a pipeline of named steps:
 * validate headers → find session → parse → route → dispatch.
 * Each step either hands its result to the next or answers with an HTTP error.
 */
import type { JsonRpcId } from '../../jsonrpc/message.js';
import type { AuthInfo } from '../../protocol/connection.js';
import { parsePayload } from './body.js';
import { quotaOwnerOfRequest } from './client-address.js';
import { PostCall, type CallTarget } from './call.js';
import type { EngineContext } from './context.js';
import {
  failedResponse,
  httpError,
  missingSession,
  sessionNotFound,
  shuttingDown,
  UnsupportedProtocolVersion,
} from './errors.js';
import { acceptedTypes, ASSUMED_PROTOCOL_VERSION, isJsonContentType } from './headers.js';
import { methodFacts } from '../../protocol/methods/table.js';
import { payloadEra } from '../../protocol/wire/era.js';
import { HttpSession, refusedSession, tooManyRequests } from './sessions.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import type { BodyResult, HttpRequest, HttpResponse } from './types.js';

type Reply = (response: HttpResponse) => void;

/** `postThen` as a promise, which never rejects. */
export function handlePost(ctx: EngineContext, request: HttpRequest, authInfo: AuthInfo | undefined): Promise<HttpResponse> {
  return new Promise((resolve) => postThen(ctx, request, authInfo, resolve));
}

/**
 * Answers a POST through `reply`, with one promise step (the body's) between
 * the request and the answer when neither the session store nor the handler
 * waits (a plain POST to a synchronous tool: every promise step costs the
 * server ~0.5 µs at c=32). Never throws: a failure (a shared store that is down, a bug) is this
 * request's answer. `reply` may be called more than once only after a bug; the
 * adapters and the promise above keep the first.
 */
export function postThen(ctx: EngineContext, request: HttpRequest, authInfo: AuthInfo | undefined, reply: Reply): void {
  try {
    const rejected = validatePostHeaders(ctx, request);
    if (rejected !== undefined) return reply(rejected);
    // Without a session id there is nothing to look up: no promise for it.
    const lookup = findSession(ctx, request, authInfo);
    if (!(lookup instanceof Promise)) return readThen(ctx, request, authInfo, lookup, reply);
    lookup.then(
      (found) => readThen(ctx, request, authInfo, found, reply),
      (error: unknown) => reply(failedResponse(error)),
    );
  } catch (error) {
    reply(failedResponse(error));
  }
}

/** Step: the body, read only once the session is known (404 costs nothing). */
function readThen(ctx: EngineContext, request: HttpRequest, authInfo: AuthInfo | undefined, found: Found, reply: Reply): void {
  if (found.response !== undefined) return reply(found.response);
  const session = found.session;
  const onBody = (body: BodyResult): void => {
    try {
      dispatchThen(ctx, request, authInfo, session, body, reply);
    } catch (error) {
      reply(failedResponse(error));
    }
  };
  try {
    // The one promise step of a plain POST: its reaction runs in the async context the request arrived in.
    request.readBody(ctx.maxBodyBytes).then(onBody, (error: unknown) => reply(failedResponse(error)));
  } catch (error) {
    reply(failedResponse(error));
  }
}

/** Steps: parse → cluster routing → per-session and per-client limits → auth → route → the call. */
function dispatchThen(ctx: EngineContext, request: HttpRequest, authInfo: AuthInfo | undefined, session: HttpSession | undefined, body: BodyResult, reply: Reply): void {
  const parsed = parsePayload(request, body, ctx.maxBodyBytes, ctx.maxBatchSize);
  if (!parsed.ok) return reply(parsed.response);
  let payload = parsed.payload;
  if (ctx.cluster !== undefined && session !== undefined) {
    // Answers and cancellations for requests running on other instances travel on the cluster channel.
    const answered: string[] = [];
    payload = ctx.cluster.intercept(session, payload, answered);
    if (payload === undefined) {
      const accepted: HttpResponse = { status: 202, headers: { 'mcp-session-id': session.id } };
      if (answered.length === 0) return reply(accepted);
      ctx.cluster.undelivered(answered).then(
        (refused) => reply(refused ?? accepted),
        (error: unknown) => reply(failedResponse(error)),
      );
      return;
    }
  }
  const shape = peek(payload);
  if (session !== undefined && shape.hasRequest) {
    const busy = tooManyRequests(ctx, session, shape.id);
    if (busy !== undefined) return reply(busy);
  }
  // Step-up (403) is decided before a session opens or a status is committed.
  const forbidden = ctx.auth?.authorize(ctx.factory, payload, authInfo, shape.id);
  if (forbidden !== undefined) return reply(forbidden);
  // Checked here; charged when the call waits, or before a session opens (its body is held until the call finishes).
  const owner = quotaOwnerOfRequest(authInfo, request.remoteAddress);
  const refused = ctx.inflight.refusal(owner, parsed.bytes, shape.id);
  if (refused !== undefined) return reply(refused);

  const call = (routed: CallTarget | HttpResponse, release: (() => void) | undefined): void => {
    if ('status' in routed) {
      release?.();
      return reply(routed);
    }
    // close() began while the body arrived (or the session opened): it is past this call, which would run unwatched.
    if (ctx.closing) {
      release?.();
      if (routed.opensSession && routed.session !== undefined) {
        const opened = routed.session;
        void ctx.sessions.end(opened, 'server shutting down').catch((error: unknown) => ctx.sessions.report(`ending session ${opened.id} at shutdown failed`, error));
      }
      return reply(shuttingDown());
    }
    const versionHeader = request.headers['mcp-protocol-version'];
    // run() never throws: from here on the call answers and releases.
    new PostCall(ctx, request, routed).run(
      {
        payload,
        hasRequest: shape.hasRequest,
        requestId: shape.id,
        protocolVersion: routed.modern ? versionHeader : (versionHeader ?? ASSUMED_PROTOCOL_VERSION),
        authInfo,
        release,
        quotaOwner: owner,
        bodyBytes: parsed.bytes,
        // A streaming method (subscriptions/listen) answers on a stream even when every other answer is JSON.
        streamOnly: routed.modern && methodFacts(shape.method)?.streams === true,
      },
      reply,
    );
  };
  const target = route(ctx, request, session, payload, shape, authInfo);
  if (!(target instanceof Promise)) return call(target, undefined);
  // Opening a session waits: the body is charged meanwhile, so the client's other requests count it.
  const release = ctx.inflight.hold(owner, parsed.bytes);
  target.then(
    (routed) => {
      try {
        call(routed, release);
      } catch (error) {
        release();
        reply(failedResponse(error));
      }
    },
    (error: unknown) => {
      release();
      reply(failedResponse(error));
    },
  );
}

/** Step: Accept, Content-Type and (for session requests) MCP-Protocol-Version. */
export function validatePostHeaders(ctx: EngineContext, request: HttpRequest): HttpResponse | undefined {
  const accept = acceptedTypes(request.headers['accept']);
  if (!accept.json || !accept.sse) {
    return httpError(
      406,
      ErrorCode.InvalidRequest,
      'Not acceptable: a POST must accept both application/json and text/event-stream (send "Accept: application/json, text/event-stream")',
    );
  }
  if (!isJsonContentType(request.headers['content-type'])) {
    return httpError(415, ErrorCode.InvalidRequest, 'Unsupported media type: send the JSON-RPC message with "Content-Type: application/json"');
  }
  // Without a session the request may be modern; the protocol handler checks its version.
  if (!ctx.stateless && request.headers['mcp-session-id'] !== undefined) return checkProtocolVersion(ctx, request);
  return undefined;
}

/** An unsupported MCP-Protocol-Version on a session request → 400 naming the supported ones. */
export function checkProtocolVersion(ctx: EngineContext, request: HttpRequest): HttpResponse | undefined {
  const version = request.headers['mcp-protocol-version'];
  if (version === undefined || ctx.protocolVersions.includes(version)) return undefined;
  return httpError(
    400,
    UnsupportedProtocolVersion,
    `Bad request: unsupported MCP-Protocol-Version "${version}" (supported: ${ctx.protocolVersions.join(', ')})`,
    { data: { supported: ctx.protocolVersions, requested: version } },
  );
}

type Found = { session: HttpSession | undefined; response?: undefined } | { response: HttpResponse };
const NO_SESSION: Found = Object.freeze({ session: undefined });

/** Step: the session named by Mcp-Session-Id, before the body is read (404 costs nothing). Synchronous when the store is. */
function findSession(ctx: EngineContext, request: HttpRequest, authInfo: AuthInfo | undefined): Found | Promise<Found> {
  const id = request.headers['mcp-session-id'];
  if (ctx.stateless || id === undefined) return NO_SESSION;
  const session = ctx.sessions.get(id, authInfo);
  return session instanceof Promise ? session.then(foundSession) : foundSession(session);
}

function foundSession(session: HttpSession | undefined): Found {
  if (session === undefined || session.kind !== 'streamable') return { response: sessionNotFound() };
  return { session };
}

interface PayloadShape {
  /** The method of a single message. */
  method: string | undefined;
  /** The id of a single request (to echo in errors). */
  id: JsonRpcId | undefined;
  hasRequest: boolean;
}

/** Looks at the payload only as far as routing needs; the protocol handler validates it. */
function peek(payload: unknown): PayloadShape {
  if (Array.isArray(payload)) {
    return { method: undefined, id: undefined, hasRequest: payload.some(isRequestLike) };
  }
  if (typeof payload !== 'object' || payload === null) return { method: undefined, id: undefined, hasRequest: false };
  const message = payload as Record<string, unknown>;
  const method = typeof message['method'] === 'string' ? message['method'] : undefined;
  const rawId = message['id'];
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : undefined;
  return { method, id, hasRequest: isRequestLike(payload) };
}

function isRequestLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'method' in value && 'id' in value;
}

/**
 * Step: which connection handles the payload. A session request goes to its
 * session; a modern (2026-07-28) or stateless one to the shared connection; an
 * initialize without a session opens one.
 */
function route(
  ctx: EngineContext,
  request: HttpRequest,
  session: HttpSession | undefined,
  payload: unknown,
  shape: PayloadShape,
  authInfo: AuthInfo | undefined,
): CallTarget | HttpResponse | Promise<CallTarget | HttpResponse> {
  if (session !== undefined) return { connection: session.connection, session, modern: false, opensSession: false };
  // The same rule the protocol serves by (one classifier for both).
  const modern = payloadEra(payload, request.headers['mcp-protocol-version']) === 'modern';
  if (modern || ctx.stateless) return ctx.sharedTarget(modern);
  if (shape.hasRequest && methodFacts(shape.method)?.negotiates === true) return openSession(ctx, request, shape, authInfo);
  return missingSession(shape.id);
}

async function openSession(ctx: EngineContext, request: HttpRequest, shape: PayloadShape, authInfo: AuthInfo | undefined): Promise<CallTarget | HttpResponse> {
  const opened = await ctx.sessions.open('streamable', ctx.factory, request, authInfo);
  if (!(opened instanceof HttpSession)) return refusedSession(ctx.sessions, opened, shape.id);
  return { connection: opened.connection, session: opened, modern: false, opensSession: true };
}
