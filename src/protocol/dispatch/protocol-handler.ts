import { ErrorCode, errorResponseFrom, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import { classify, type Classified, type JsonRpcId, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../../jsonrpc/message.js';
import { isThenable } from '../../util/thenable.js';
import { reaches, type BusEvent } from '../../stores/bus.js';
import { principalOf } from '../request/principal.js';
import type { ConnectionOptions, HandleResult, McpConnection, MessageExtra, MessageSink } from '../connection.js';
import { LazyAbort } from '../request/abort.js';
import type { InputBroker } from '../request/context.js';
import type { McpProtocolHandlerDeps } from '../scopes/options.js';
import { resolveEra, type EraInfo } from './request-era.js';
import { mapError } from '../request/error-map.js';
import { ConnectionClosedError, RequestCancelledError, RequestTimeoutError } from '../wire/errors.js';
import { requireExtensions } from '../extensions.js';
import { methodTable, type MethodEntry, type RequestMethod } from '../methods/table.js';
import type { RecordUpdate } from '../methods/shared.js';
import { runMiddleware } from '../request/middleware.js';
import { InputRequiredSignal, MrtrBroker } from '../request/mrtr.js';
import { publishSessionEnd, publishSessionStart, tracingNotifications, tracingRequests } from '../observability/channels.js';
import { observeNotification, observeRequest } from '../observability/hooks.js';
import { MethodContext } from '../scopes/method-context.js';
import { ServerScope } from '../scopes/server-scope.js';
import { SessionScope } from '../scopes/session-scope.js';
import { payloadEra } from '../wire/era.js';
import { parseSessionRecord, type SessionRecord } from '../wire/session-record.js';

const noop: MessageSink = () => undefined;

/** Legacy sessions carry out client requests as server→client JSON-RPC requests. */
const LEGACY_BROKER: InputBroker = {
  request: (method, params, options, context) => {
    const session = context.host;
    if (session === undefined) return Promise.reject(new JsonRpcProtocolError(ErrorCode.InternalError, `${method} needs a session: this stateless endpoint cannot send requests to the client`));
    return session.outbound.request(method, params, context.sink, {
      signal: context.signal,
      timeoutMs: options.timeoutMs ?? session.clientRequestTimeoutMs,
    });
  },
};

/**
 * One connection (a stdio process, a legacy HTTP session, or the shared
 * stateless endpoint): validates envelopes, runs batches, dispatches methods
 * through the method table and routes client responses. It reads the server's
 * state from its ServerScope and keeps its session's in a SessionScope
 * (none on a stateless connection). It never touches bytes.
 */
export class McpProtocolHandler implements McpConnection {
  /** @internal what every connection of the server shares */
  readonly server: ServerScope;
  readonly sessionId: string | undefined;
  /** Shared by unrelated requests: nothing negotiated persists. */
  readonly stateless: boolean;
  /** `stdio`, `http`, or undefined for an in-process connection (observability only). */
  readonly transport: string | undefined;
  readonly #session: SessionScope | undefined;
  readonly #send: MessageSink;
  readonly #onClose: ((handler: McpProtocolHandler) => void) | undefined;
  readonly #unsubscribe: (() => void) | undefined;
  /** In-flight requests of a stateless connection, where ids are not unique. */
  #anonymous: Set<LazyAbort> | undefined;
  /** Who the first request came from: whose principal-scoped updates a connection without a session id hears. */
  #principal: string | undefined;
  #closed = false;

  /**
   * @param server the server's scope (or, as before, its parts: registries, metadata, options).
   * @param options.record restores a session from its record (see `SessionRecord`).
   * @param hooks.onClose called once when the connection closes.
   * @param hooks.managed the owner fans bus events out through `deliver()`;
   *   otherwise the handler subscribes to the bus itself.
   */
  constructor(server: ServerScope | McpProtocolHandlerDeps, options: ConnectionOptions = {}, hooks: { onClose?: (handler: McpProtocolHandler) => void; managed?: boolean } = {}) {
    this.server = server instanceof ServerScope ? server : new ServerScope(server);
    this.#send = options.send ?? noop;
    this.sessionId = options.sessionId;
    this.stateless = options.stateless === true;
    this.transport = options.transport;
    if (this.stateless && options.record !== undefined) throw new TypeError('A stateless connection keeps no session: it cannot be opened with a record');
    const record = options.record === undefined ? undefined : parseSessionRecord(options.record);
    this.#session = this.stateless ? undefined : new SessionScope(this.server, record, options.onRecordChange);
    this.#onClose = hooks.onClose;
    this.#unsubscribe = hooks.managed === true ? undefined : this.server.bus?.subscribe((event) => this.deliver(event));
    if (!this.stateless) publishSessionStart({ connection: this, sessionId: this.sessionId, transport: this.transport });
  }

  /** What this session negotiated (plain JSON; see `SessionRecord`); undefined before `initialize`, on a stateless connection, and once closed. */
  get record(): SessionRecord | undefined {
    return this.#session?.record;
  }

  /** @internal the session's live parts (undefined on a stateless connection) */
  get session(): SessionScope | undefined {
    return this.#session;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Number of requests currently being handled. */
  get inFlight(): number {
    return (this.#session?.inFlightCount ?? 0) + (this.#anonymous?.size ?? 0);
  }

  /**
   * Handles one message or batch. The answer itself when a single request was
   * answered synchronously (most tools are), a promise otherwise: transports
   * write a synchronous answer in the same tick. Never throws or rejects for
   * anything the peer sent.
   */
  handleMessage(payload: unknown, extra: MessageExtra = {}): HandleResult | Promise<HandleResult> {
    if (Array.isArray(payload)) return this.#handleBatch(payload, extra);
    // The common case, a single request, goes straight to dispatch (no extra promise layer).
    const classified = classify(payload);
    return classified.kind === 'request' ? this.#handleRequest(classified.message, extra) : this.#handleClassified(classified, extra);
  }

  async #handleBatch(payload: unknown[], extra: MessageExtra): Promise<HandleResult> {
    if (payload.length === 0) {
      return errorResponseFrom(null, new JsonRpcProtocolError(ErrorCode.InvalidRequest, 'Invalid Request: an empty batch is not allowed'));
    }
    const maxBatch = this.server.maxBatchSize;
    if (payload.length > maxBatch) {
      return errorResponseFrom(null, new JsonRpcProtocolError(ErrorCode.InvalidRequest, `Invalid Request: a batch may hold at most ${maxBatch} messages (got ${payload.length})`));
    }
    // 2026-07-28 has no batches: each request in one is refused, by id, and nothing runs.
    const refuse = this.#session?.negotiated !== true && payloadEra(payload, extra.protocolVersion) === 'modern';
    // Started in order, run concurrently; answered in order, notifications omitted.
    const settled = await Promise.all(payload.map((item) => (refuse ? Promise.resolve(refusedInBatch(item)) : this.#handleOne(item, extra))));
    const responses = settled.filter((r): r is JsonRpcResponse => r !== undefined);
    return responses.length > 0 ? responses : undefined;
  }

  #handleOne(payload: unknown, extra: MessageExtra): Promise<JsonRpcResponse | undefined> {
    return this.#handleClassified(classify(payload), extra);
  }

  async #handleClassified(classified: Classified, extra: MessageExtra): Promise<JsonRpcResponse | undefined> {
    switch (classified.kind) {
      case 'invalid':
        return errorResponseFrom(classified.id, new JsonRpcProtocolError(ErrorCode.InvalidRequest, `Invalid Request: ${classified.reason}`));
      case 'response':
        this.#session?.pendingOutbound?.settle(classified.message);
        return undefined;
      case 'notification':
        // Traced like requests (docs/observability.md), only when someone subscribes.
        if (tracingNotifications()) await observeNotification(this, classified.message, extra, () => this.#handleNotification(classified.message, extra));
        else await this.#handleNotification(classified.message, extra);
        return undefined;
      case 'request':
        return this.#handleRequest(classified.message, extra);
    }
  }

  async #handleNotification(message: JsonRpcNotification, extra: MessageExtra): Promise<void> {
    try {
      const params = (message.params ?? {}) as Record<string, unknown>;
      const entry = methodTable[message.method];
      if (entry?.kind === 'notification') {
        await entry.handle(params, { server: this.server, session: this.#session, sessionId: this.sessionId, extra });
        return;
      }
      await this.server.hooks?.onNotification?.(message.method, params, { sessionId: this.sessionId });
    } catch (error) {
      // A notification never gets a reply, even when handling it throws.
      this.server.logger?.error?.('mcpkit: notification handler failed', error);
    }
  }

  /** One request: the tracing branch, written once (docs/observability.md: one property read when nobody subscribes). */
  #handleRequest(request: JsonRpcRequest, extra: MessageExtra): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined> {
    const found = methodTable[request.method];
    return tracingRequests() ? observeRequest(this, request, found, extra, () => this.#dispatch(request, found, extra)) : this.#dispatch(request, found, extra);
  }

  /**
   * Runs one request. Not async: when the handler answers synchronously (most
   * tools do) the answer is built and returned at once, without a promise or
   * an await per step. A handler that returns a promise, a timeout or
   * middleware take `#settle`, the awaiting path.
   */
  #dispatch(request: JsonRpcRequest, found: MethodEntry | undefined, extra: MessageExtra): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined> {
    const { id, method } = request;
    const server = this.server;
    const session = this.#session;
    // On a shared stateless connection ids belong to unrelated clients: they may repeat.
    if (session?.inFlight(id) !== undefined) {
      return errorResponseFrom(id, new JsonRpcProtocolError(ErrorCode.InvalidRequest, `Invalid Request: a request with id ${JSON.stringify(id)} is already in flight`));
    }
    const entry: RequestMethod | undefined = found?.kind === 'request' ? found : undefined;
    this.#principal ??= principalOf(extra.authInfo) ?? '';
    const run = new RunningRequest(id, method, entry, extra, entry?.cancellable !== false);
    const controller = run.controller;
    let outcome: JsonRpcResponse | undefined;
    try {
      // An unknown method is -32601 whatever its params look like.
      if (entry === undefined) throw new JsonRpcProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      if (request.params !== undefined && Array.isArray(request.params)) {
        throw new JsonRpcProtocolError(ErrorCode.InvalidParams, `Invalid params: ${method} takes named parameters (an object), not an array`);
      }
      const params = request.params ?? {};
      const era = (run.era = resolveEra(server, session, entry, params, extra));
      if (!entry.eras.includes(era.era) || (entry.gate !== undefined && !entry.gate(server))) throw new JsonRpcProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      if (entry.clientExtensions !== undefined) requireExtensions(era.client.capabilities, entry.clientExtensions);
      const ctx = (run.context = this.#context(request, params, era, controller, extra));
      const middleware = server.middleware;
      const handle = entry.changesRecord === true ? changeRecord : plainHandle;
      const running = middleware.length === 0 ? handle(entry, params, ctx) : runMiddleware(middleware, method, params, ctx, async (p) => handle(entry, p, ctx));
      // Answered synchronously: nothing to race (a timeout or a round's end come later, and lose).
      if (isThenable(running)) {
        // In flight from here on: `notifications/cancelled`, close() and a repeated id see it. A request
        // answered in this tick never is (nothing can reach it meanwhile), which saves a map entry per call.
        if (run.cancellable) {
          run.registered = true;
          if (session === undefined) (this.#anonymous ??= new Set()).add(controller);
          else session.track(id, controller);
        }
        // The transport's signal (a client gone) reaches the handler through the controller, which follows it lazily.
        return this.#settle(run, running, params);
      }
      outcome = this.#answer(run, running);
    } catch (error) {
      outcome = this.#failed(run, error);
    }
    this.#release(run);
    return outcome;
  }

  /** The awaiting path of `#dispatch`: a handler's promise, raced with the request's timeout and (2026-07-28) the end of its round. */
  async #settle(run: RunningRequest, running: PromiseLike<unknown>, params: Record<string, unknown>): Promise<JsonRpcResponse | undefined> {
    const { controller, method } = run;
    const server = this.server;
    try {
      const timeoutMs = run.entry!.timeoutMs?.(server, params) ?? server.requestTimeoutMs;
      const broker = run.era!.broker instanceof MrtrBroker ? run.era!.broker : undefined;
      let result: unknown;
      if (timeoutMs === undefined && broker === undefined) {
        result = await running;
      } else {
        result = await new Promise<unknown>((resolve, reject) => {
          running.then(resolve, reject);
          // A round of a multi round-trip request ends as soon as it needs input.
          broker?.endRoundWith(resolve, reject);
          // Answer on time even when the handler ignores its signal.
          if (timeoutMs !== undefined) {
            run.timer = setTimeout(() => {
              const error = new RequestTimeoutError(method, timeoutMs);
              controller.abort(error);
              reject(error);
            }, timeoutMs);
          }
        });
        if (broker?.announced) {
          // This pass is answered with input_required; the retry runs the handler again, so this run's outcome is moot.
          Promise.resolve(running).catch(() => undefined);
          controller.abort(new InputRequiredSignal());
          broker.release();
        }
      }
      return this.#answer(run, result);
    } catch (error) {
      return this.#failed(run, error);
    } finally {
      this.#release(run);
    }
  }

  /** The response to a handler's result (none for a cancelled request). May throw: `finalize` reshapes it. */
  #answer(run: RunningRequest, result: unknown): JsonRpcResponse | undefined {
    if (run.controller.reason instanceof RequestCancelledError) return undefined;
    return { jsonrpc: '2.0', id: run.id, result: run.era!.finalize(run.entry!, result, this.server) };
  }

  #failed(run: RunningRequest, error: unknown): JsonRpcResponse | undefined {
    const { controller, entry, era, id } = run;
    // A cancelled request gets no response at all.
    if (controller.reason instanceof RequestCancelledError) return undefined;
    const server = this.server;
    try {
      if (error instanceof RequestTimeoutError && era !== undefined && entry?.onTimeout) {
        return { jsonrpc: '2.0', id, result: era.finalize(entry, entry.onTimeout(error), server) };
      }
    } catch (failure) {
      error = failure;
    }
    return errorResponseFrom(id, mapError(error, server.logger, era?.version, run.method));
  }

  /** Once the request is answered (or will get no answer). */
  #release(run: RunningRequest): void {
    // Its progress token is no longer active: later progress() calls send nothing.
    run.context?.finish();
    if (run.timer !== undefined) clearTimeout(run.timer);
    run.controller.detach();
    if (!run.registered) return;
    if (this.#session === undefined) this.#anonymous?.delete(run.controller);
    else this.#session.untrack(run.id);
  }

  #context(request: JsonRpcRequest, params: Record<string, unknown>, era: EraInfo, abort: LazyAbort, extra: MessageExtra): MethodContext {
    const meta = params['_meta'];
    const session = this.#session;
    return new MethodContext(
      {
        requestId: request.id,
        method: request.method,
        abort,
        protocolVersion: era.version,
        era: era.era,
        client: era.client,
        sessionId: this.sessionId,
        authInfo: extra.authInfo,
        requestInfo: extra.requestInfo,
        meta: typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined,
        logLevel: era.logLevel,
        send: extra.send ?? this.#send,
        broker: era.broker ?? LEGACY_BROKER,
        host: session,
        closeStream: extra.closeStream,
      },
      this.server,
      session,
    );
  }

  /** @internal sends a message not tied to any request (e.g. `list_changed`) */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.#closed) return;
    await this.#send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** @internal a list change or resource update from the notification bus (McpServer fans them out) */
  deliver(event: BusEvent): void {
    // Only a legacy session that completed `initialize` hears about changes.
    const session = this.#session;
    const declared = session?.serverCapabilities;
    if (this.#closed || declared === undefined) return;
    const send = (method: string, params?: Record<string, unknown>): void => {
      this.notify(method, params).catch((error: unknown) => this.server.logger?.error?.('mcpkit: notification failed', error));
    };
    if (event.type === 'resource_updated') {
      // An update for one session or principal (a gateway's upstream link) reaches no other.
      if (session!.isSubscribed(event.uri) && reaches(event, this.sessionId, this.#principal ?? '')) send('notifications/resources/updated', { uri: event.uri });
      return;
    }
    // A list the session was never told about at initialize sends nothing, even if it exists now.
    const capability = declared[event.list] as { listChanged?: boolean } | undefined;
    if (capability?.listChanged === true) send(`notifications/${event.list}/list_changed`);
  }

  close(reason = 'Connection closed'): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe?.();
    const session = this.#session;
    const protocolVersion = session?.negotiated === true ? session.version : undefined;
    const closed = new ConnectionClosedError(reason);
    for (const controller of [...(this.#anonymous ?? [])]) controller.abort(closed);
    // In-flight requests are aborted, pending server→client requests rejected; the subscriptions end with the session.
    session?.close(reason, closed);
    this.#onClose?.(this);
    if (!this.stateless) publishSessionEnd({ connection: this, sessionId: this.sessionId, transport: this.transport, protocolVersion, reason });
  }
}

/** One request from its dispatch to its answer: what the answer and the cleanup need. */
class RunningRequest {
  readonly controller: LazyAbort;
  era: EraInfo | undefined = undefined;
  context: MethodContext | undefined = undefined;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** In the session's (or the shared connection's) in-flight set. */
  registered = false;

  constructor(
    readonly id: JsonRpcId,
    readonly method: string,
    readonly entry: RequestMethod | undefined,
    readonly extra: MessageExtra,
    /** Registered once it waits, so that `notifications/cancelled` (or close) can abort it. */
    readonly cancellable: boolean,
  ) {
    this.controller = new LazyAbort(extra.signal);
  }
}

function plainHandle(entry: RequestMethod, params: Record<string, unknown>, ctx: MethodContext): unknown {
  return entry.handle(params, ctx);
}

/**
 * A record-changing method: its change is applied (and saved, when someone listens) before it is
 * answered. Synchronous when the handler is and nobody listens, like any other method: an
 * `initialize` pipelined with a call is answered first, as it always was.
 */
function changeRecord(entry: RequestMethod, params: Record<string, unknown>, ctx: MethodContext): unknown {
  const handled = entry.handle(params, ctx);
  return isThenable(handled) ? Promise.resolve(handled).then((update) => applyChange(entry, update as RecordUpdate, ctx)) : applyChange(entry, handled as RecordUpdate, ctx);
}

function applyChange(entry: RequestMethod, { result, change }: RecordUpdate, ctx: MethodContext): unknown {
  const saved = change !== undefined && ctx.session !== undefined ? ctx.session.change(change, entry.method) : undefined;
  return saved === undefined ? result : saved.then(() => result);
}

function refusedInBatch(item: unknown): JsonRpcResponse | undefined {
  const classified = classify(item);
  if (classified.kind === 'invalid') return errorResponseFrom(classified.id, new JsonRpcProtocolError(ErrorCode.InvalidRequest, `Invalid Request: ${classified.reason}`));
  if (classified.kind !== 'request') return undefined;
  return errorResponseFrom(classified.message.id, new JsonRpcProtocolError(ErrorCode.InvalidRequest, 'Invalid Request: 2026-07-28 does not allow JSON-RPC batches; send each message on its own'));
}

export { ConnectionClosedError, RequestCancelledError, RequestTimeoutError } from '../wire/errors.js';
