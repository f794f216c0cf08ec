/**
 * POST admission: one ordered list of steps that both POST paths run (the
 * Streamable HTTP endpoint and the legacy HTTP+SSE messages endpoint). A step
 * that does not apply to a request costs one predicate; a step that applies
 * answers (refusing the request) or admits it to the next. The fast path is
 * the same list: when nothing waits, every step runs in the tick the body
 * ended, so no list of exclusions says when a check may be skipped.
 */
import type { JsonRpcId } from '../../jsonrpc/message.js';
import { ErrorCode, isJsonRpcProtocolError } from '../../jsonrpc/errors.js';
import type { AuthInfo } from '../../protocol/connection.js';
import { isThenable } from '../../util/thenable.js';
import { parsePayload } from './body.js';
import { quotaOwnerOfRequest } from './client-address.js';
import type { EngineContext } from './context.js';
import { failedResponse, httpError, sessionNotFound, shuttingDown, UnsupportedProtocolVersion } from './errors.js';
import { acceptedTypes, isJsonContentType } from './headers.js';
import type { HttpSession, SessionKind } from './sessions.js';
import { tooManyRequests } from './sessions.js';
import type { BodyResult, HttpRequest, HttpResponse } from './types.js';

type Answer = HttpResponse | Promise<HttpResponse>;

/** What differs between the two POST endpoints; everything else is the list below. */
export interface PostEndpoint {
  readonly kind: SessionKind;
  /** The session id the request names; undefined: none; a response: refused (the id is required and missing). */
  sessionIdOf(post: Admission): string | undefined | HttpResponse;
  /** More limits on what one session may run (legacy SSE: request bytes on its stream). */
  sessionBusy?(session: HttpSession, bytes: number): HttpResponse | undefined;
  /** The id a refusal echoes (the legacy endpoint answers on its stream: none). */
  readonly echoesId: boolean;
  /** Runs the admitted payload. Never throws: a failure is this request's answer. */
  dispatch(post: Admission): Answer;
}

/** The shape of a payload as far as admission and routing need; the protocol validates it. */
export interface PayloadShape {
  /** The method of a single message. */
  readonly method: string | undefined;
  /** The id of a single request (to echo in errors). */
  readonly id: JsonRpcId | undefined;
  readonly hasRequest: boolean;
}

/** One POST being admitted: what the steps learn, in order. */
export class Admission {
  authInfo: AuthInfo | undefined = undefined;
  session: HttpSession | undefined = undefined;
  payload: unknown = undefined;
  bytes = 0;
  shape: PayloadShape = NO_SHAPE;
  /** The quota owner (principal, else client address), once the body is read. */
  owner = '';
  /** Applied to the answer (CORS headers). */
  decorate: ((response: HttpResponse) => HttpResponse) | undefined = undefined;

  constructor(
    readonly ctx: EngineContext,
    readonly request: HttpRequest,
    readonly endpoint: PostEndpoint,
  ) {}

  /** After the session backend changed `payload` (intercept). */
  reshape(): void {
    this.shape = peek(this.payload);
  }

  /** The id a refusal echoes. */
  get id(): JsonRpcId | undefined {
    return this.endpoint.echoesId ? this.shape.id : undefined;
  }
}

/** One admission check. */
export interface AdmissionStep {
  readonly name: string;
  /** Whether the step has anything to check for this request (cheap: it runs for every POST). */
  readonly applies: (post: Admission) => boolean;
  /** An answer refuses the request; undefined admits it to the next step. */
  readonly run: (post: Admission) => HttpResponse | undefined | PromiseLike<unknown>;
  /**
   * What a promise from `run` resolved to, as an answer or undefined, in the same
   * reaction that goes on to the next step (the body: no second promise step per POST).
   */
  readonly settle?: (post: Admission, value: unknown) => HttpResponse | undefined;
}

const NO_SHAPE: PayloadShape = Object.freeze({ method: undefined, id: undefined, hasRequest: false });

/** The steps, in the order they run (docs/architecture.md shows this list). */
export const POST_ADMISSION: readonly AdmissionStep[] = [
  {
    name: 'shutting down (503)',
    applies: (post) => post.ctx.closing,
    run: () => shuttingDown(),
  },
  {
    name: 'CORS (the answer is decorated for an accepted Origin)',
    applies: (post) => post.ctx.cors !== undefined && post.request.headers['origin'] !== undefined,
    run(post) {
      const cors = post.ctx.cors!;
      const origin = post.request.headers['origin']!;
      post.decorate = (response) => cors.decorate(response, origin);
      return undefined;
    },
  },
  {
    name: 'authentication (401, 403 for the server-wide scopes, 503 when the verifier fails)',
    applies: (post) => post.ctx.auth !== undefined || post.ctx.authenticate !== undefined,
    run: authenticate,
  },
  {
    name: 'Accept (406) and Content-Type (415)',
    applies: () => true,
    run(post) {
      if (post.endpoint.kind === 'streamable') {
        const accept = acceptedTypes(post.request.headers['accept']);
        if (!accept.json || !accept.sse) {
          return httpError(
            406,
            ErrorCode.InvalidRequest,
            'Not acceptable: a POST must accept both application/json and text/event-stream (send "Accept: application/json, text/event-stream")',
          );
        }
      }
      if (isJsonContentType(post.request.headers['content-type'])) return undefined;
      return httpError(415, ErrorCode.InvalidRequest, 'Unsupported media type: send the JSON-RPC message with "Content-Type: application/json"');
    },
  },
  {
    // Without a session the request may be 2026-07-28; the protocol checks its version.
    name: 'MCP-Protocol-Version of a session request (400)',
    applies: (post) => post.endpoint.kind === 'streamable' && !post.ctx.stateless && post.request.headers['mcp-session-id'] !== undefined,
    run: (post) => checkProtocolVersion(post.ctx, post.request),
  },
  {
    name: 'the session it names (404; before the body is read, so a 404 costs nothing)',
    applies: () => true,
    run: findSession,
  },
  {
    name: 'the body (413, -32700, batch size)',
    applies: () => true,
    // The one promise step of a plain POST: its reaction runs in the async context the request arrived in.
    run: (post) => post.request.readBody(post.ctx.maxBodyBytes),
    settle: (post, body) => parseBody(post, body as BodyResult),
  },
  {
    // Answers and cancellations for requests running on another instance travel there (202, or 410 when it is gone).
    name: 'payloads for another instance (the session backend)',
    applies: (post) => post.session !== undefined,
    run: (post) => post.ctx.sessions.intercept(post),
  },
  {
    name: 'requests running in the session (429)',
    applies: (post) => post.session !== undefined && post.shape.hasRequest,
    run: (post) => tooManyRequests(post.ctx, post.session!, post.id) ?? post.endpoint.sessionBusy?.(post.session!, post.bytes),
  },
  {
    // Step-up (403) is decided before a session opens or a status is committed.
    name: 'the scopes the request needs (403)',
    applies: (post) => post.ctx.auth !== undefined,
    run: (post) => post.ctx.auth!.authorize(post.ctx.factory, post.payload, post.authInfo, post.id),
  },
  {
    // Checked here; charged when the call waits, or before a session opens.
    name: 'request bytes in flight for this client (429)',
    applies: () => true,
    run: (post) => post.ctx.inflight.refusal(post.owner, post.bytes, post.id),
  },
];

/** Runs the admission steps, then the endpoint's dispatch. Never throws; synchronous while no step waits. */
export function admit(post: Admission, from = 0): Answer {
  try {
    for (let i = from; i < POST_ADMISSION.length; i++) {
      const step = POST_ADMISSION[i]!;
      if (!step.applies(post)) continue;
      const refused = step.run(post);
      if (refused === undefined) continue;
      if (!isThenable(refused)) return finish(post, refused);
      const next = i + 1;
      const settle = step.settle;
      return Promise.resolve(refused).then(
        (value) => {
          const answer = settle === undefined ? (value as HttpResponse | undefined) : settle(post, value);
          return answer === undefined ? admit(post, next) : finish(post, answer);
        },
        (error: unknown) => finish(post, failedResponse(error)),
      );
    }
    const answer = post.endpoint.dispatch(post);
    if (post.decorate === undefined) return answer;
    return isThenable(answer) ? answer.then((response) => finish(post, response)) : finish(post, answer);
  } catch (error) {
    // A store or adapter failure: never a stack trace on the wire.
    return finish(post, failedResponse(error));
  }
}

function finish(post: Admission, response: HttpResponse): HttpResponse {
  return post.decorate === undefined ? response : post.decorate(response);
}

async function authenticate(post: Admission): Promise<HttpResponse | undefined> {
  const { ctx, request } = post;
  if (ctx.auth !== undefined) {
    const checked = await ctx.auth.authenticate(request);
    if (checked.response !== undefined) return checked.response;
    post.authInfo = checked.authInfo;
    return undefined;
  }
  try {
    post.authInfo = await ctx.authenticate!(request);
    return undefined;
  } catch (error) {
    const message = isJsonRpcProtocolError(error) ? error.message : 'Unauthorized: the request carries no valid credentials';
    return httpError(401, ErrorCode.InvalidRequest, message);
  }
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

/** Synchronous when the session store is. */
function findSession(post: Admission): HttpResponse | undefined | Promise<HttpResponse | undefined> {
  const id = post.endpoint.sessionIdOf(post);
  if (id === undefined) return undefined;
  if (typeof id !== 'string') return id;
  const found = post.ctx.sessions.get(id, post.authInfo);
  return isThenable(found) ? Promise.resolve(found).then((session) => foundSession(post, session)) : foundSession(post, found);
}

function foundSession(post: Admission, session: HttpSession | undefined): HttpResponse | undefined {
  if (session === undefined || session.kind !== post.endpoint.kind) return sessionNotFound();
  post.session = session;
  return undefined;
}

function parseBody(post: Admission, body: BodyResult): HttpResponse | undefined {
  const { ctx, request } = post;
  const parsed = parsePayload(request, body, ctx.maxBodyBytes, ctx.maxBatchSize);
  if (!parsed.ok) return parsed.response;
  post.payload = parsed.payload;
  post.bytes = parsed.bytes;
  post.shape = peek(parsed.payload);
  post.owner = quotaOwnerOfRequest(post.authInfo, request.remoteAddress);
  return undefined;
}

/** Looks at the payload only as far as routing needs; the protocol handler validates it. */
export function peek(payload: unknown): PayloadShape {
  if (Array.isArray(payload)) return { method: undefined, id: undefined, hasRequest: payload.some(isRequestLike) };
  if (typeof payload !== 'object' || payload === null) return NO_SHAPE;
  const message = payload as Record<string, unknown>;
  const method = typeof message['method'] === 'string' ? message['method'] : undefined;
  const rawId = message['id'];
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : undefined;
  return { method, id, hasRequest: isRequestLike(payload) };
}

function isRequestLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'method' in value && 'id' in value;
}
