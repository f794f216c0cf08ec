import { ErrorCode, errorResponseFrom, JsonRpcProtocolError } from '../jsonrpc/errors.js';
import { classify, type Classified, type JsonRpcId, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../jsonrpc/message.js';
import type { BusEvent } from '../stores/bus.js';
import type { ConnectionOptions, HandleResult, McpConnection, MessageExtra, MessageSink } from './connection.js';
import { LazyAbort } from './abort.js';
import { RequestContext, type ContextHost, type InputBroker } from './context.js';
import { mapError } from './error-map.js';
import { isLoggingLevel } from './logging.js';
import { methodTable, type MethodEntry } from './methods/index.js';
import { runMiddleware } from './middleware.js';
import { InputRequiredSignal, MrtrBroker } from './mrtr.js';
import { OutboundRequests } from './outbound.js';
import { SubscriptionSet } from './subscription-set.js';
import type { McpProtocolHandlerDeps } from './deps.js';
import { isModernMessage, resolveEra, type EraInfo } from './era.js';
import type { LoggingLevel, ServerCapabilities } from './types.js';
import type { ProtocolVersion } from './versions.js';
import { publishSessionEnd, publishSessionStart, tracingRequests } from './observability/channels.js';
import { observeRequest } from './observability/hooks.js';

const noop: MessageSink = () => undefined;

/** Legacy sessions carry out client requests as server→client JSON-RPC requests. */
const LEGACY_BROKER: InputBroker = {
  request: (method, params, options, context) =>
    context.host.outbound.request(method, params, context.sink, {
      signal: context.signal,
      timeoutMs: options.timeoutMs ?? context.host.clientRequestTimeoutMs,
    }),
};

/** What a legacy client told us in `initialize`; it is also the era of the session's requests. */
export interface NegotiatedSession extends EraInfo {
  readonly protocolVersion: ProtocolVersion;
  /** What the server declared in its answer: only those lists send `list_changed` to this session. */
  readonly serverCapabilities: ServerCapabilities;
}

/**
 * The protocol handler of one connection: validates envelopes, runs batches,
 * dispatches methods, routes client responses, and owns the connection's
 * legacy session state. It never touches bytes.
 */
export class McpProtocolHandler implements McpConnection, ContextHost {
  readonly deps: McpProtocolHandlerDeps;
  readonly sessionId: string | undefined;
  /** Shared by unrelated requests: nothing negotiated persists. */
  readonly stateless: boolean;
  /** `stdio`, `http`, or undefined for an in-process connection (observability only). */
  readonly transport: string | undefined;
  session: NegotiatedSession | undefined;
  sessionLogLevel: LoggingLevel | undefined;
  /** @internal the era of session-less legacy requests (stateless connections), per header */
  legacyEra: EraInfo | undefined;
  /** @internal */
  legacyEraHeader: string | undefined;
  readonly #send: MessageSink;
  readonly #onClose: ((handler: McpProtocolHandler) => void) | undefined;
  readonly #unsubscribe: (() => void) | undefined;
  // Created on first use: an idle session costs a few hundred bytes.
  #outbound: OutboundRequests | undefined;
  #subscriptions: SubscriptionSet | undefined;
  #inFlight: Map<JsonRpcId, LazyAbort> | undefined;
  /** In-flight requests of a stateless connection, where ids are not unique. */
  #anonymous: Set<LazyAbort> | undefined;
  #closed = false;

  /**
   * @param hooks.onClose called once when the connection closes.
   * @param hooks.managed the owner fans bus events out through `deliver()`;
   *   otherwise the handler subscribes to `deps.bus` itself.
   */
  constructor(deps: McpProtocolHandlerDeps, options: ConnectionOptions = {}, hooks: { onClose?: (handler: McpProtocolHandler) => void; managed?: boolean } = {}) {
    this.deps = deps;
    this.#send = options.send ?? noop;
    this.sessionId = options.sessionId;
    this.stateless = options.stateless === true;
    this.transport = options.transport;
    this.#onClose = hooks.onClose;
    this.#unsubscribe = hooks.managed === true ? undefined : deps.bus?.subscribe((event) => this.deliver(event));
    if (!this.stateless) publishSessionStart({ connection: this, sessionId: this.sessionId, transport: this.transport });
  }

  /** Server→client requests of this connection. */
  get outbound(): OutboundRequests {
    const options = this.deps.options;
    return (this.#outbound ??= new OutboundRequests({ maxPending: options?.maxPendingClientRequests, maxPendingBytes: options?.maxPendingClientRequestBytes }));
  }

  /** Resource URIs this (legacy) connection subscribed to. */
  get subscriptions(): SubscriptionSet {
    return (this.#subscriptions ??= new SubscriptionSet());
  }

  get clientRequestTimeoutMs(): number {
    return this.deps.options?.clientRequestTimeoutMs ?? 60_000;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Number of requests currently being handled. */
  get inFlight(): number {
    return (this.#inFlight?.size ?? 0) + (this.#anonymous?.size ?? 0);
  }

  handleMessage(payload: unknown, extra: MessageExtra = {}): Promise<HandleResult> {
    if (Array.isArray(payload)) return this.#handleBatch(payload, extra);
    // The common case, a single request, goes straight to dispatch (no extra promise layer).
    const classified = classify(payload);
    return classified.kind === 'request' ? this.#handleRequest(classified.message, extra) : this.#handleClassified(classified, extra);
  }

  async #handleBatch(payload: unknown[], extra: MessageExtra): Promise<HandleResult> {
    if (payload.length === 0) {
      return errorResponseFrom(null, new JsonRpcProtocolError(ErrorCode.InvalidRequest, 'Invalid Request: an empty batch is not allowed'));
    }
    const maxBatch = this.deps.options?.maxBatchSize;
    if (maxBatch !== undefined && payload.length > maxBatch) {
      return errorResponseFrom(null, new JsonRpcProtocolError(ErrorCode.InvalidRequest, `Invalid Request: a batch may hold at most ${maxBatch} messages (got ${payload.length})`));
    }
    // 2026-07-28 has no batches: each request in one is refused, by id, and nothing runs.
    const refuse = payload.some((item) => isModernMessage(this, item, extra.protocolVersion));
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
        this.#outbound?.settle(classified.message);
        return undefined;
      case 'notification':
        await this.#handleNotification(classified.message, extra);
        return undefined;
      case 'request':
        return this.#handleRequest(classified.message, extra);
    }
  }

  async #handleNotification(message: JsonRpcNotification, extra: MessageExtra): Promise<void> {
    try {
      const params = (message.params ?? {}) as Record<string, unknown>;
      switch (message.method) {
        case 'notifications/cancelled': {
          const id = params['requestId'];
          if (id !== undefined) this.#inFlight?.get(id as JsonRpcId)?.abort(new RequestCancelledError(params['reason']));
          return;
        }
        case 'notifications/initialized':
          return;
        case 'notifications/roots/list_changed':
          await this.deps.hooks?.onRootsListChanged?.({ sessionId: this.sessionId, authInfo: extra.authInfo });
          return;
        default:
          await this.deps.hooks?.onNotification?.(message.method, params, { sessionId: this.sessionId });
      }
    } catch (error) {
      // A notification never gets a reply, even when handling it throws.
      this.deps.logger?.error?.('mcpkit: notification handler failed', error);
    }
  }

  #handleRequest(request: JsonRpcRequest, extra: MessageExtra): Promise<JsonRpcResponse | undefined> {
    // The observability hook (docs/observability.md): one property read when nobody subscribes.
    return tracingRequests() ? observeRequest(this, request, extra, () => this.#dispatch(request, extra)) : this.#dispatch(request, extra);
  }

  async #dispatch(request: JsonRpcRequest, extra: MessageExtra): Promise<JsonRpcResponse | undefined> {
    const { id, method } = request;
    // On a shared stateless connection ids belong to unrelated clients: they may repeat.
    if (!this.stateless && this.#inFlight?.has(id) === true) {
      return errorResponseFrom(id, new JsonRpcProtocolError(ErrorCode.InvalidRequest, `Invalid Request: a request with id ${JSON.stringify(id)} is already in flight`));
    }
    const controller = new LazyAbort();
    let onTransportAbort: (() => void) | undefined;
    let era: EraInfo | undefined;
    let context: RequestContext | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const transportSignal = extra.signal;
    if (transportSignal) {
      if (transportSignal.aborted) controller.abort(transportSignal.reason);
      else transportSignal.addEventListener('abort', (onTransportAbort = () => controller.abort(transportSignal.reason)), { once: true });
    }
    // initialize cannot be cancelled (the spec forbids it): not tracking it keeps idle sessions small.
    const tracked = method !== 'initialize';
    if (tracked && this.stateless) (this.#anonymous ??= new Set()).add(controller);
    else if (tracked) (this.#inFlight ??= new Map()).set(id, controller);
    try {
      const entry: MethodEntry | undefined = methodTable[method];
      // An unknown method is -32601 whatever its params look like.
      if (!entry) throw new JsonRpcProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      if (request.params !== undefined && Array.isArray(request.params)) {
        throw new JsonRpcProtocolError(ErrorCode.InvalidParams, `Invalid params: ${method} takes named parameters (an object), not an array`);
      }
      const params = (request.params ?? {});
      era = resolveEra(this, method, params, extra);
      if (!entry.available(this, era)) throw new JsonRpcProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      const ctx = (context = this.#context(request, params, era, controller, extra));
      const running = runMiddleware(this.deps.middleware, method, params, ctx, async (p) => entry.handle(p, ctx, this, era!));
      const timeoutMs = entry.timeoutMs?.(this, params) ?? this.deps.options?.requestTimeoutMs;
      const broker = era.broker instanceof MrtrBroker ? era.broker : undefined;
      let result: unknown;
      if (timeoutMs === undefined && broker === undefined) {
        result = await running;
      } else {
        result = await new Promise<unknown>((resolve, reject) => {
          running.then(resolve, reject);
          // A round of a multi round-trip request ends as soon as it needs input.
          if (broker) {
            broker.onInputRequired = resolve;
            broker.onInputFailed = reject;
          }
          // Answer on time even when the handler ignores its signal.
          if (timeoutMs !== undefined) {
            timer = setTimeout(() => {
              const error = new RequestTimeoutError(method, timeoutMs);
              controller.abort(error);
              reject(error);
            }, timeoutMs);
          }
        });
        if (broker?.announced) {
          running.catch(() => undefined);
          controller.abort(new InputRequiredSignal());
          broker.release();
        }
      }
      if (controller.reason instanceof RequestCancelledError) return undefined;
      return { jsonrpc: '2.0', id, result: era.finalize(method, result, this) };
    } catch (error) {
      // A cancelled request gets no response at all.
      if (controller.reason instanceof RequestCancelledError) return undefined;
      if (error instanceof RequestTimeoutError && era !== undefined) {
        const entry = methodTable[method];
        if (entry?.onTimeout) return { jsonrpc: '2.0', id, result: era.finalize(method, entry.onTimeout(error), this) };
      }
      return errorResponseFrom(id, mapError(error, this, era, method));
    } finally {
      // Its progress token is no longer active: later progress() calls send nothing.
      context?.finish();
      if (timer !== undefined) clearTimeout(timer);
      if (onTransportAbort) transportSignal?.removeEventListener('abort', onTransportAbort);
      if (tracked && this.stateless) this.#anonymous?.delete(controller);
      else if (tracked) this.#inFlight?.delete(id);
    }
  }

  #context(request: JsonRpcRequest, params: Record<string, unknown>, era: EraInfo, abort: LazyAbort, extra: MessageExtra): RequestContext {
    const meta = params['_meta'];
    return new RequestContext({
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
      host: this,
      closeStream: extra.closeStream,
      ...(era.broker instanceof MrtrBroker ? { requestState: era.broker.kept } : {}),
    });
  }

  /** Sends a message not tied to any request (e.g. `list_changed`). */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.#closed) return;
    await this.#send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** A list change or resource update from the notification bus. */
  deliver(event: BusEvent): void {
    // Only a legacy session that completed `initialize` hears about changes.
    if (this.#closed || this.session === undefined) return;
    const send = (method: string, params?: Record<string, unknown>): void => {
      this.notify(method, params).catch((error: unknown) => this.deps.logger?.error?.('mcpkit: notification failed', error));
    };
    if (event.type === 'resource_updated') {
      if (this.#subscriptions?.has(event.uri) === true) send('notifications/resources/updated', { uri: event.uri });
      return;
    }
    // A list the session was never told about at initialize sends nothing, even if it exists now.
    const capability = this.session.serverCapabilities[event.list] as { listChanged?: boolean } | undefined;
    if (capability?.listChanged === true) send(`notifications/${event.list}/list_changed`);
  }

  setSessionLogLevel(level: unknown): void {
    if (!isLoggingLevel(level)) throw new JsonRpcProtocolError(ErrorCode.InvalidParams, `Invalid params: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency`);
    this.sessionLogLevel = level;
  }

  close(reason = 'Connection closed'): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe?.();
    for (const controller of [...(this.#inFlight?.values() ?? []), ...(this.#anonymous ?? [])]) controller.abort(new ConnectionClosedError(reason));
    this.#outbound?.rejectAll(reason);
    // The session's subscriptions end with it.
    this.#subscriptions?.clear();
    this.#onClose?.(this);
    if (!this.stateless) publishSessionEnd({ connection: this, sessionId: this.sessionId, transport: this.transport, protocolVersion: this.session?.protocolVersion, reason });
  }
}

function refusedInBatch(item: unknown): JsonRpcResponse | undefined {
  const classified = classify(item);
  if (classified.kind === 'invalid') return errorResponseFrom(classified.id, new JsonRpcProtocolError(ErrorCode.InvalidRequest, `Invalid Request: ${classified.reason}`));
  if (classified.kind !== 'request') return undefined;
  return errorResponseFrom(classified.message.id, new JsonRpcProtocolError(ErrorCode.InvalidRequest, 'Invalid Request: 2026-07-28 does not allow JSON-RPC batches; send each message on its own'));
}

/** The client cancelled the request: it gets no response. */
export class RequestCancelledError extends Error {
  override readonly name = 'RequestCancelledError';
  constructor(reason: unknown) {
    super(typeof reason === 'string' ? `Request cancelled: ${reason}` : 'Request cancelled');
  }
}

export class RequestTimeoutError extends JsonRpcProtocolError {
  constructor(method: string, timeoutMs: number) {
    super(ErrorCode.InternalError, `Request timed out: ${method} did not finish within ${timeoutMs} ms`, { timeoutMs });
  }
}

export class ConnectionClosedError extends JsonRpcProtocolError {
  constructor(reason: string) {
    super(ErrorCode.InternalError, reason);
  }
}

