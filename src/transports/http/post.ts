/**
 * POST on the Streamable HTTP endpoint: the admission steps (admission.ts,
 * shared with the legacy SSE endpoint), then route → the call.
 */
import type { AuthInfo } from '../../protocol/connection.js';
import { methodFacts } from '../../protocol/methods/table.js';
import { payloadEra } from '../../protocol/wire/era.js';
import { isThenable } from '../../util/thenable.js';
import { admit, Admission, type PayloadShape, type PostEndpoint } from './admission.js';
import { PostCall, type CallTarget } from './call.js';
import type { EngineContext } from './context.js';
import { failedResponse, missingSession, shuttingDown } from './errors.js';
import { ASSUMED_PROTOCOL_VERSION } from './headers.js';
import { HttpSession, refusedSession } from './sessions.js';
import type { HttpRequest, HttpResponse } from './types.js';

export { checkProtocolVersion } from './admission.js';

/**
 * Answers a POST: the answer itself when nothing waited but the body (a plain POST to a synchronous
 * tool: every promise step costs the server ~0.5 µs at c=32), else a promise. Never throws or
 * rejects: a failure (a shared store that is down, a bug) is this request's answer.
 */
export function handlePost(ctx: EngineContext, request: HttpRequest): HttpResponse | Promise<HttpResponse> {
  return admit(new Admission(ctx, request, STREAMABLE));
}

const STREAMABLE: PostEndpoint = {
  kind: 'streamable',
  echoesId: true,
  // Without a session id there is nothing to look up: no promise for it.
  sessionIdOf: (post) => (post.ctx.stateless ? undefined : post.request.headers['mcp-session-id']),
  dispatch,
};

function dispatch(post: Admission): HttpResponse | Promise<HttpResponse> {
  const { ctx, shape } = post;
  const target = route(ctx, post.request, post.session, post.payload, shape, post.authInfo);
  if (!isThenable(target)) return call(post, target, undefined);
  // Opening a session waits: the body is charged meanwhile, so the client's other requests count it.
  const release = ctx.inflight.hold(post.owner, post.bytes);
  return target.then(
    (routed) => {
      try {
        return call(post, routed, release);
      } catch (error) {
        release();
        return failedResponse(error);
      }
    },
    (error: unknown) => {
      release();
      return failedResponse(error);
    },
  );
}

function call(post: Admission, routed: CallTarget | HttpResponse, release: (() => void) | undefined): HttpResponse | Promise<HttpResponse> {
  const { ctx, request, shape } = post;
  if ('status' in routed) {
    release?.();
    return routed;
  }
  // close() began while the body arrived (or the session opened): it is past this call, which would run unwatched.
  if (ctx.closing) {
    release?.();
    if (routed.opensSession && routed.session !== undefined) {
      const opened = routed.session;
      void ctx.sessions.end(opened, 'server shutting down').catch((error: unknown) => ctx.sessions.report(`ending session ${opened.id} at shutdown failed`, error));
    }
    return shuttingDown();
  }
  const versionHeader = request.headers['mcp-protocol-version'];
  // run() never throws: from here on the call answers and releases.
  return new PostCall(ctx, request, routed).run({
    payload: post.payload,
    hasRequest: shape.hasRequest,
    requestId: shape.id,
    protocolVersion: routed.modern ? versionHeader : (versionHeader ?? ASSUMED_PROTOCOL_VERSION),
    authInfo: post.authInfo,
    release,
    quotaOwner: post.owner,
    bodyBytes: post.bytes,
    // A streaming method (subscriptions/listen) answers on a stream even when every other answer is JSON.
    streamOnly: routed.modern && methodFacts(shape.method)?.streams === true,
  });
}

/**
 * Which connection handles the payload. A session request goes to its
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
