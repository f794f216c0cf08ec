/**
 * The deprecated HTTP+SSE transport of 2024-11-05, opt-in: `GET /sse` opens a
 * stream whose first event names the POST endpoint; POSTs there are answered
 * 202 and their responses travel on the stream.
 */
import { requestInfoOf } from './client-address.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import type { AuthInfo, McpConnection, MessageExtra } from '../../protocol/connection.js';
import { admit, Admission, type PostEndpoint } from './admission.js';
import { positive } from './options.js';
import type { EngineContext } from './context.js';
import { badRequest, httpError, methodNotAllowed } from './errors.js';
import { acceptedTypes } from './headers.js';
import { HttpSession, refusedSession, requestLimit } from './sessions.js';
import { SSE_HEADERS, SseConnection, sseEvent } from './sse.js';
import type { HttpRequest, HttpResponse, LegacySseOptions } from './types.js';

export const DEFAULT_LEGACY_MAX_INFLIGHT_BYTES = 16 * 1024 * 1024;

export class LegacySseEndpoint {
  private readonly ssePath: string;
  private readonly messagesPath: string;
  private readonly maxInflightBytes: number;
  /** Bytes of request bodies running per session (kept here: only legacy sessions need it). */
  private readonly bytesInFlight = new Map<HttpSession, number>();

  constructor(
    private readonly ctx: EngineContext,
    options: LegacySseOptions,
  ) {
    this.ssePath = options.ssePath ?? '/sse';
    this.messagesPath = options.messagesPath ?? '/messages';
    this.maxInflightBytes = positive(options.maxInflightBytes, DEFAULT_LEGACY_MAX_INFLIGHT_BYTES, 'legacySse.maxInflightBytes');
  }

  /** True for a POST the messages endpoint answers. */
  ownsPost(request: HttpRequest): boolean {
    return request.path === this.messagesPath;
  }

  /** Answers requests on the legacy paths; undefined for any other path. */
  route(request: HttpRequest, authInfo: AuthInfo | undefined): Promise<HttpResponse> | undefined {
    if (request.path === this.ssePath) {
      return request.method === 'GET' ? this.open(request, authInfo) : Promise.resolve(methodNotAllowed(request.method, 'GET'));
    }
    if (request.path === this.messagesPath) {
      return request.method === 'POST' ? Promise.resolve(this.post(request)) : Promise.resolve(methodNotAllowed(request.method, 'POST'));
    }
    return undefined;
  }

  private async open(request: HttpRequest, authInfo: AuthInfo | undefined): Promise<HttpResponse> {
    const { ctx } = this;
    if (!acceptedTypes(request.headers['accept']).sse) {
      return httpError(406, ErrorCode.InvalidRequest, 'Not acceptable: the SSE endpoint needs "Accept: text/event-stream"');
    }
    const session = await ctx.sessions.open('legacy-sse', ctx.factory, request, authInfo);
    if (!(session instanceof HttpSession)) return refusedSession(ctx.sessions, session);
    const connection = new SseConnection();
    const stream = session.standalone(ctx.sessions.standaloneId(session));
    stream.attach(connection);
    connection.keepAliveEvery(ctx.keepAliveMs);
    connection.write(sseEvent(`${this.messagesPath}?sessionId=${encodeURIComponent(session.id)}`, undefined, 'endpoint'));
    // The stream is the session: when it closes, the session ends.
    const end = (): void => {
      void ctx.sessions.end(session, 'SSE stream closed').catch((error: unknown) => ctx.sessions.report(`ending legacy SSE session ${session.id} after its stream closed failed`, error));
    };
    if (request.signal.aborted) end();
    else request.signal.addEventListener('abort', end, { once: true });
    return { status: 200, headers: { ...SSE_HEADERS }, stream: connection };
  }

  /** A POST to the messages endpoint: the admission steps every POST runs (admission.ts), then 202 and the run. */
  post(request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    return admit(new Admission(this.ctx, request, this.endpoint));
  }

  private readonly endpoint: PostEndpoint = {
    kind: 'legacy-sse',
    // Answered on the stream, not in the POST's body: a refusal names no request.
    echoesId: false,
    sessionIdOf: (post) => new URLSearchParams(post.request.query).get('sessionId') ?? badRequest('Bad request: missing sessionId query parameter; use the endpoint the SSE stream announced'),
    // Answered 202 before they run, so what a session may have running is bounded here, bytes included.
    sessionBusy: (session, bytes) =>
      (this.bytesInFlight.get(session) ?? 0) + bytes > this.maxInflightBytes ? requestLimit(`${this.maxInflightBytes} bytes of requests (legacySse.maxInflightBytes)`, 'on the SSE stream') : undefined,
    dispatch: (post) => this.run(post),
  };

  private run(post: Admission): HttpResponse {
    const { ctx, request } = post;
    const session = post.session!;
    const release = ctx.inflight.hold(post.owner, post.bytes);
    const stream = session.standalone(ctx.sessions.standaloneId(session));
    const extra: MessageExtra = {
      send: (message) => stream.send(message),
      requestInfo: requestInfoOf(request),
      protocolVersion: request.headers['mcp-protocol-version'] ?? '2024-11-05',
    };
    if (post.authInfo !== undefined) extra.authInfo = post.authInfo;
    session.inflight++;
    this.charge(session, post.bytes);
    ctx.sessions.touch(session);
    const bytes = post.bytes;
    // Answer 202 now; the result follows on the stream (requests run concurrently).
    let answer: ReturnType<McpConnection['handleMessage']>;
    try {
      answer = session.connection.handleMessage(post.payload, extra);
    } catch {
      // A connection of the caller's own that throws: nothing to send (the protocol handler never does).
      answer = undefined;
    }
    void Promise.resolve(answer)
      .then(
        (result) => {
          if (Array.isArray(result)) for (const response of result) stream.send(response);
          else if (result !== undefined) stream.send(result);
        },
        () => undefined,
      )
      .finally(() => {
        session.inflight--;
        this.charge(session, -bytes);
        release();
        // stream.send answers -32603 for a response it cannot serialise, so nothing is left to reject; the chain still ends here.
      })
      .catch(() => undefined);
    return { status: 202, headers: {} };
  }

  private charge(session: HttpSession, bytes: number): void {
    const held = (this.bytesInFlight.get(session) ?? 0) + bytes;
    if (held > 0) this.bytesInFlight.set(session, held);
    else this.bytesInFlight.delete(session);
  }
}
