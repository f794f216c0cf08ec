/**
 * One POST being answered. The answer is JSON unless the request emits a
 * message before its result (or the mode is 'sse'): then, at that first
 * message, the response becomes an SSE stream. Nothing of SSE is allocated for
 * a request that answers in JSON.
 */
import { requestInfoOf } from './client-address.js';
import { errorResponseFrom, isJsonRpcProtocolError } from '../../jsonrpc/errors.js';
import type { JsonRpcId, JsonRpcMessage } from '../../jsonrpc/message.js';
import { encodeBatch, unserializableResponse } from '../../jsonrpc/serialize.js';
import { encodeJsonAnswer } from '../../jsonrpc/json-parts.js';
import { definesSsePriming } from '../../protocol/wire/versions.js';
import type { AuthInfo, HandleResult, MessageExtra } from '../../protocol/connection.js';
import { LazyAbort } from '../../protocol/request/abort.js';
import type { CallTarget, EngineContext, InflightCall } from './context.js';
import { JSON_HEADERS, retryAfterOf, shuttingDown } from './errors.js';
import { httpStatusFor } from '../../errors/codes.js';
import { isThenable } from '../../util/thenable.js';
import { EventStream, SSE_HEADERS, SseConnection } from './sse.js';
import type { BodyParts, HttpRequest, HttpResponse } from './types.js';

export type { CallTarget } from './context.js';

export interface CallInput {
  payload: unknown;
  /** The payload holds at least one request (else success is 202). */
  hasRequest: boolean;
  /** The id of a single request, for an error answer the handler did not make. */
  requestId: JsonRpcId | undefined;
  protocolVersion: string | undefined;
  authInfo: AuthInfo | undefined;
  /** The answer is a stream whatever the response mode (`subscriptions/listen`). */
  streamOnly?: boolean;
  /** Gives back the request's in-flight bytes (maxInflightBytesPerClient) when the call finishes. */
  release?: (() => void) | undefined;
  /** Without `release`: whom to charge `bodyBytes` (admitted in this tick) if the call waits. */
  quotaOwner?: string;
  bodyBytes?: number;
}

export class PostCall implements InflightCall {
  private resolve: ((response: HttpResponse) => void) | undefined;
  private stream: EventStream | undefined;
  private connectionOut: SseConnection | undefined;
  private done = false;
  private tracked = false;
  // The engine's in-flight list links (live-list.ts); declared here so that every PostCall has one shape.
  liveLinked = false;
  livePrev: InflightCall | undefined = undefined;
  liveNext: InflightCall | undefined = undefined;
  private streamOnly = false;
  private protocolVersion: string | undefined;
  /** A single request's id: a shared session's stream names it (stream-origin.ts). */
  private requestId: JsonRpcId | undefined;
  private release: (() => void) | undefined;
  /** What the protocol handler gets as the POST's signal: an AbortSignalLike, no AbortController per request. */
  private readonly cancellation = new LazyAbort();
  /** Tags server→client requests with where their answers go (the session backend's; undefined on one instance). */
  private readonly tag: ((message: JsonRpcMessage) => JsonRpcMessage) | undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly request: HttpRequest,
    private readonly target: CallTarget,
  ) {
    this.tag = target.session === undefined ? undefined : ctx.sessions.outbound(target.session);
  }

  /** The answer: itself when the handler answered synchronously (or a stream began), else a promise. Never throws or rejects. */
  run(input: CallInput): HttpResponse | Promise<HttpResponse> {
    let now: HttpResponse | undefined;
    this.resolve = (response) => {
      now = response;
    };
    this.start(input);
    if (now !== undefined) return now;
    return new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  private start(input: CallInput): void {
    const { ctx, target, request } = this;
    this.streamOnly = input.streamOnly === true;
    this.protocolVersion = input.protocolVersion;
    this.requestId = input.requestId;
    this.release = input.release;
    // Every key present, always in this order: one object shape for every request
    // keeps the protocol's reads of `extra` monomorphic (adding keys conditionally
    // cost a session request about a third of its engine time).
    const extra: MessageExtra = {
      send: this.onMessage,
      signal: this.cancellation,
      requestInfo: requestInfoOf(request),
      protocolVersion: input.protocolVersion,
      authInfo: input.authInfo,
      // Only where a stream can be resumed (stateful sessions with an event log).
      closeStream: this.resumable ? (options) => this.closeStream(options) : undefined,
    };

    if (target.session !== undefined) target.session.inflight++;
    let answer: HandleResult | PromiseLike<HandleResult>;
    try {
      if (ctx.responseMode === 'sse' && input.hasRequest) this.startStream();
      answer = target.connection.handleMessage(input.payload, extra);
    } catch (error) {
      this.fail(error, input.requestId);
      return;
    }
    // isThenable, not instanceof Promise: a connection of the caller's own may answer with another realm's promise.
    if (!isThenable(answer)) {
      // Answered in this tick: the client cannot have gone away meanwhile, so nothing watches for it.
      this.settle(answer, input);
      return;
    }
    // In flight for shutdown and the client's byte quota (a call answered in this tick never is).
    this.tracked = true;
    ctx.track(this);
    if (this.release === undefined && input.quotaOwner !== undefined) this.release = ctx.inflight.hold(input.quotaOwner, input.bodyBytes ?? 0);
    if (request.onDisconnect !== undefined) request.onDisconnect(this.onDisconnect);
    else if (request.signal.aborted) this.onDisconnect();
    else request.signal.addEventListener('abort', this.onDisconnect, { once: true });
    // One reaction, not a then + catch pair: whatever goes wrong while answering fails this request only.
    // Promise.resolve: a foreign thenable may call back twice, or synchronously.
    Promise.resolve(answer).then(
      (result) => this.settle(result, input),
      (error: unknown) => this.fail(error, input.requestId),
    );
  }

  private settle(result: HandleResult, input: CallInput): void {
    try {
      this.complete(result, input.hasRequest);
    } catch (error) {
      this.fail(error, input.requestId);
    }
  }

  cancel(reason: string): void {
    this.cancellation.abort(new Error(reason));
    if (this.stream !== undefined) this.stream.abort();
    else this.respond(shuttingDown());
    this.finishCall();
  }

  /** Streams of a session survive a dropped connection when there is an event log. */
  private get resumable(): boolean {
    return this.target.session !== undefined && !this.target.modern && this.ctx.eventStore !== undefined;
  }

  private readonly onMessage = (message: JsonRpcMessage): void => {
    // One of several instances: a server→client request names this instance, so its answer finds the way back.
    if (this.tag !== undefined) message = this.tag(message);
    if (this.done || (this.ctx.responseMode === 'json' && !this.streamOnly)) {
      // No stream of our own: the session's standalone stream, if any.
      this.target.session?.send(message);
      return;
    }
    this.stream ??= this.startStream();
    this.stream.send(message);
  };

  private closeStream(options?: { retryMs?: number }): void {
    if (this.done) return;
    const stream = this.stream ?? this.startStream();
    stream.closeConnection(options?.retryMs);
  }

  private readonly onDisconnect = (): void => {
    const stream = this.stream;
    const connection = this.connectionOut;
    if (stream !== undefined && connection !== undefined && stream.resumable) {
      // 2025-11-25: a dropped connection is not a cancellation; the client may resume.
      stream.detach(connection);
      return;
    }
    connection?.drop();
    this.cancellation.abort(new Error('client disconnected'));
  };

  private startStream(): EventStream {
    const session = this.target.session;
    const resumable = this.resumable;
    const report = session?.storeErrorReporter ?? ((error: unknown) => this.ctx.sessions.report('recording an SSE event failed', error));
    const stream = new EventStream(session === undefined ? '' : this.ctx.sessions.streamId(session, this.requestId), resumable ? session?.eventLog : undefined, report);
    const connection = new SseConnection();
    this.stream = stream;
    this.connectionOut = connection;
    stream.attach(connection);
    // 2026-07-28 streams (subscriptions/listen above all) may idle for long: comments keep intermediaries from closing them.
    if (this.target.modern) connection.keepAliveEvery(this.ctx.keepAliveMs);
    if (resumable && session !== undefined) {
      session.live.set(stream.id, stream);
      stream.onFinish = () => session.live.delete(stream.id);
      // Clients of revisions before 2025-11-25 cannot parse the empty-data priming event.
      if (definesSsePriming(this.protocolVersion)) stream.prime();
    }
    this.respond({ status: 200, headers: this.headers(SSE_HEADERS), stream: connection });
    return stream;
  }

  private complete(result: HandleResult, hasRequest: boolean): void {
    if (this.done) return;
    const { session, opensSession } = this.target;
    if (opensSession && session !== undefined && !isSuccess(result)) {
      // A failed initialize leaves no session behind.
      void this.ctx.sessions.end(session, 'initialize failed').catch((error: unknown) => this.ctx.sessions.report(`ending session ${session.id} after a failed initialize failed`, error));
    }
    const stream = this.stream;
    if (stream !== undefined) {
      if (Array.isArray(result)) for (const response of result) stream.send(response);
      else if (result !== undefined) stream.send(result);
      stream.finish();
    } else {
      this.respond(this.jsonAnswer(result, hasRequest));
    }
    this.finishCall();
  }

  /** handleMessage must not reject; if it does, that is a server bug: 500 (or a -32603 event), no details. */
  private fail(error: unknown, requestId: JsonRpcId | undefined): void {
    if (this.done) return;
    const response = errorResponseFrom(requestId ?? null, isJsonRpcProtocolError(error) ? error : undefined);
    if (this.stream !== undefined) {
      this.complete(response, true);
      return;
    }
    this.respond({ status: 500, headers: { ...JSON_HEADERS }, body: JSON.stringify(response) });
    if (this.target.opensSession && this.target.session !== undefined) {
      const failed = this.target.session;
      void this.ctx.sessions.end(failed, 'initialize failed').catch((error: unknown) => this.ctx.sessions.report(`ending session ${failed.id} after a failed initialize failed`, error));
    }
    this.finishCall();
  }

  private jsonAnswer(result: HandleResult, hasRequest: boolean): HttpResponse {
    const keepSession = !this.target.opensSession || isSuccess(result);
    if (result === undefined) return { status: 202, headers: keepSession ? this.headers() : {} };
    let status = 200;
    if (!hasRequest) status = 400; // only notifications/responses, and they were refused
    else if (this.target.modern && Array.isArray(result)) status = 400; // 2026-07-28 has no batches: each entry is a refusal
    else if (this.target.modern && !Array.isArray(result) && 'error' in result) status = httpStatusFor(result.error.code);
    // A shared store is down: in either era the client is told when to retry.
    const retryAfter = !Array.isArray(result) && 'error' in result ? retryAfterOf(result.error) : undefined;
    if (retryAfter !== undefined) status = 503;
    // A large answer (an array of 128 items or more in its result, over one part) is written in parts: json-parts.ts.
    let body: string | Uint8Array | BodyParts;
    if (Array.isArray(result)) {
      body = encodeBatch(result);
    } else {
      try {
        body = encodeJsonAnswer(result);
      } catch {
        // A result or error data that cannot be serialised (deep, cyclic, BigInt): this request fails, nothing else.
        status = 500;
        body = JSON.stringify(unserializableResponse(result));
      }
    }
    const headers = keepSession ? this.headers(JSON_HEADERS) : { ...JSON_HEADERS };
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
    return typeof body === 'string' || body instanceof Uint8Array ? { status, headers, body } : { status, headers, parts: body };
  }

  private headers(base?: Readonly<Record<string, string>>): Record<string, string> {
    const session = this.target.session;
    // The JSON answer's headers as a literal (one shape, no spread): the most common response of all.
    if (base === JSON_HEADERS) return session === undefined ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', 'mcp-session-id': session.id };
    const headers: Record<string, string> = base === undefined ? {} : { ...base };
    if (session !== undefined) headers['mcp-session-id'] = session.id;
    return headers;
  }

  private respond(response: HttpResponse): void {
    const resolve = this.resolve;
    this.resolve = undefined;
    resolve?.(response);
  }

  private finishCall(): void {
    if (this.done) return;
    this.done = true;
    this.release?.();
    if (this.tracked) {
      // Only an answer that waited is tracked and watches the connection.
      if (this.request.onDisconnect === undefined) this.request.signal.removeEventListener('abort', this.onDisconnect);
      this.ctx.untrack(this);
    }
    const session = this.target.session;
    if (session !== undefined) {
      session.inflight--;
      this.ctx.sessions.touch(session);
    }
  }
}

function isSuccess(result: HandleResult): boolean {
  return result !== undefined && !Array.isArray(result) && 'result' in result;
}
