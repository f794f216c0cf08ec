/**
 * CLIENT spans, `mcp.client.operation.duration` and trace-context injection for
 * what `mcpkit/client` sends, from the outbound diagnostics channels
 * (protocol/observability/outbound.ts). `instrument()` starts it with the server side.
 */
import { context, propagation, SpanKind, trace, type Attributes, type Context, type Histogram, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  OUTBOUND_NOTIFICATION_CHANNEL,
  OUTBOUND_REQUEST_CHANNEL,
  type OutboundMessage,
  type OutboundNotificationMessage,
  type OutboundRequestMessage,
} from '../protocol/observability/outbound.js';
import { ATTR, type Outcome } from './attributes.js';
import { followChannel } from './follow-channel.js';
import { settle, setJson } from './span-outcome.js';

export interface ClientTelemetryOptions {
  readonly native: boolean;
  readonly capture: boolean;
  readonly tracer: Tracer;
  readonly durations: Histogram;
}

interface Running {
  readonly span: Span | undefined;
  readonly context: Context;
  readonly started: number;
}

/** Bound to the outbound `start` channels: the send runs in the CLIENT span's context (an HTTP instrumentation's span is its child). */
class SendScope extends AsyncLocalStorage<Running> {
  override run<R, TArgs extends unknown[]>(state: Running, callback: (...args: TArgs) => R, ...args: TArgs): R {
    return context.with(state.context, callback, undefined, ...args);
  }
}

/** Subscribes; returns the undo. */
export function instrumentClient(options: ClientTelemetryOptions): () => void {
  const { native, capture, tracer, durations } = options;
  const running = new WeakMap<OutboundMessage, Running>();
  const scope = new SendScope();

  const begin = (message: OutboundMessage, request: OutboundRequestMessage | undefined): Running => {
    const known = running.get(message);
    if (known !== undefined) return known;
    const parent = context.active();
    let span: Span | undefined;
    if (native) {
      const attributes = request !== undefined ? requestSpanAttributes(request) : baseAttributes(message);
      span = tracer.startSpan(request !== undefined ? clientSpanName(request) : message.method, { kind: SpanKind.CLIENT, attributes }, parent);
      if (capture && request?.targetKind === 'tool') setJson(span, ATTR.toolArguments, request.params['arguments']);
    }
    const state: Running = { span, context: span !== undefined ? trace.setSpan(parent, span) : parent, started: performance.now() };
    inject(message, state.context);
    running.set(message, state);
    return state;
  };

  /** Spans on one outbound channel: begun at `start`, ended by `finish` once the exchange settled. */
  const follow = <M extends OutboundMessage>(name: string, request: (message: M) => OutboundRequestMessage | undefined, finish: (message: M, state: Running) => void): (() => void) =>
    followChannel<M, Running>(name, {
      start: (message) => void begin(message, request(message)),
      settled: (message) => {
        const state = running.get(message);
        if (state === undefined) return;
        running.delete(message);
        finish(message, state);
      },
      store: { scope, bind: (message) => begin(message, request(message)) },
    });

  const unfollowRequests = follow<OutboundRequestMessage>(OUTBOUND_REQUEST_CHANNEL, (message) => message, (message, state) => {
    const outcome = requestOutcome(message);
    const version = negotiatedVersion(message);
    if (state.span !== undefined) {
      const span = state.span;
      if (message.id !== undefined) span.setAttribute(ATTR.requestId, String(message.id));
      if (version !== undefined && version !== message.protocolVersion) span.setAttribute(ATTR.protocolVersion, version);
      if (capture && message.targetKind === 'tool' && outcome.errorType === undefined) setJson(span, ATTR.toolResult, message.result);
      settle(span, outcome);
      span.end();
    }
    if (!native) return;
    const attributes = operationAttributes(message, version);
    if (outcome.errorType !== undefined) attributes[ATTR.errorType] = outcome.errorType;
    if (outcome.statusCode !== undefined) attributes[ATTR.statusCode] = outcome.statusCode;
    durations.record((performance.now() - state.started) / 1000, attributes);
  });
  const unfollowNotifications = follow<OutboundNotificationMessage>(OUTBOUND_NOTIFICATION_CHANNEL, () => undefined, (message, state) => {
    if (state.span === undefined) return;
    if (message.error !== undefined) settle(state.span, failure(message.error));
    state.span.end();
  });

  return () => {
    unfollowRequests();
    unfollowNotifications();
  };
}

/** `traceparent`/`tracestate` into `params._meta`, unless the caller put a `traceparent` there. */
function inject(message: OutboundMessage, active: Context): void {
  const meta = message.params['_meta'];
  const given = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined;
  if (given?.['traceparent'] !== undefined) return;
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  if (Object.keys(carrier).length === 0) return;
  message.params = { ...message.params, _meta: { ...given, ...carrier } };
}

/** `{mcp.method.name} {target}`: tool and prompt names only (resource URIs are high-cardinality). */
function clientSpanName(message: OutboundRequestMessage): string {
  return message.target !== undefined && (message.targetKind === 'tool' || message.targetKind === 'prompt') ? `${message.method} ${message.target}` : message.method;
}

/** `initialize` asks for a revision; its answer names the one agreed on. */
function negotiatedVersion(message: OutboundRequestMessage): string | undefined {
  if (message.method === 'initialize') {
    const agreed = message.result?.['protocolVersion'];
    if (typeof agreed === 'string') return agreed;
    const asked = message.params['protocolVersion'];
    return typeof asked === 'string' ? asked : message.protocolVersion;
  }
  return message.protocolVersion;
}

/** Method, revision, transport and server: what the span and the metric share (low cardinality). */
function baseAttributes(message: OutboundMessage, version: string | undefined = message.protocolVersion): Attributes {
  const attributes: Attributes = { [ATTR.method]: message.method };
  if (version !== undefined) attributes[ATTR.protocolVersion] = version;
  const peer = message.peer;
  if (peer !== undefined) {
    attributes[ATTR.transport] = peer.transport;
    if (peer.transport === 'tcp') attributes[ATTR.protocolName] = 'http';
    if (peer.address !== undefined) attributes[ATTR.serverAddress] = peer.address;
    if (peer.port !== undefined) attributes[ATTR.serverPort] = peer.port;
  }
  return attributes;
}

function operationAttributes(message: OutboundRequestMessage, version: string | undefined): Attributes {
  const attributes = baseAttributes(message, version);
  if (message.target !== undefined) {
    if (message.targetKind === 'tool') {
      attributes[ATTR.toolName] = message.target;
      attributes[ATTR.operation] = 'execute_tool';
    } else if (message.targetKind === 'prompt') attributes[ATTR.promptName] = message.target;
  }
  return attributes;
}

function requestSpanAttributes(message: OutboundRequestMessage): Attributes {
  const attributes = operationAttributes(message, negotiatedVersion(message));
  if (message.peer?.sessionId !== undefined) attributes[ATTR.sessionId] = message.peer.sessionId;
  if (message.target !== undefined && message.targetKind === 'resource') attributes[ATTR.resourceUri] = message.target;
  return attributes;
}

/** A JSON-RPC error → its code; a transport failure → its kind; a tool result with `isError` → `tool_error`. */
function requestOutcome(message: OutboundRequestMessage): Outcome {
  if (message.error !== undefined) return failure(message.error);
  if (message.targetKind === 'tool' && message.result?.['isError'] === true) return { errorType: 'tool_error' };
  return {};
}

function failure(error: unknown): Outcome {
  const { code, kind, name, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; kind?: unknown; name?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (typeof code === 'number') return { errorType: String(code), statusCode: String(code), message: text };
  if (name === 'McpTransportError' && typeof kind === 'string') return { errorType: kind, message: text };
  return { errorType: typeof name === 'string' && error instanceof Error ? name : '_OTHER', message: text };
}
