/**
 * `instrument()`: subscribes to mcpkit's diagnostics channels and turns them
 * into OpenTelemetry spans, metrics and trace-context propagation.
 */
import {
  context,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Histogram,
  type Attributes,
  type MeterProvider,
  type Span,
  type SpanOptions,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { channel } from 'node:diagnostics_channel';
import {
  CLIENT_REQUEST_CHANNEL,
  NOTIFICATION_CHANNEL,
  REQUEST_CHANNEL,
  SESSION_END_CHANNEL,
  SESSION_START_CHANNEL,
  type ClientRequestMessage,
  type NotificationMessage,
  type RequestMessage,
  type SessionEndMessage,
  type SessionStartMessage,
} from '../protocol/observability/channels.js';
import {
  ATTR,
  clientRequestOutcome,
  clientSpanAttributes,
  DURATION_BUCKETS,
  notificationOperationAttributes,
  notificationSpanAttributes,
  operationAttributes,
  requestOutcome,
  serverSpanAttributes,
  sessionAttributes,
  spanName,
} from './attributes.js';
import { instrumentClient } from './client.js';
import { followChannel } from './follow-channel.js';
import { settle, setJson } from './span-outcome.js';
import { currentRequest, holding, RequestScope, type RequestState } from './scope.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

/**
 * - `native`: SERVER spans for requests, CLIENT spans for server→client requests and for what
 *   mcpkit/client sends, duration metrics.
 * - `propagation_only`: no spans or metrics; the trace context from `_meta` is made current for
 *   handlers and passed on in the `_meta` of server→client requests and of mcpkit/client's requests.
 * - `off`: nothing is subscribed.
 */
export type TelemetryMode = 'native' | 'propagation_only' | 'off';

export interface InstrumentOptions {
  /** Default: the global tracer provider. */
  tracerProvider?: TracerProvider;
  /** Default: the global meter provider. */
  meterProvider?: MeterProvider;
  /** Default `native`; the environment may lower it (MCPKIT_TELEMETRY, OTEL_SDK_DISABLED). */
  mode?: TelemetryMode;
  /** Record tool arguments and results on spans (`gen_ai.tool.call.arguments` / `.result`). They may hold personal data. Default false. */
  captureArguments?: boolean;
}

export interface Instrumentation {
  /** The mode in effect after the environment was read. */
  readonly mode: TelemetryMode;
  /** Unsubscribes: later requests are no longer observed. */
  disable(): void;
}

const INSTRUMENTATION = 'mcpkit';
const MODES: readonly TelemetryMode[] = ['native', 'propagation_only', 'off'];

const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

const INSTRUMENT_KEYS = keysOf<InstrumentOptions>({ tracerProvider: true, meterProvider: true, mode: true, captureArguments: true });

/** `OTEL_SDK_DISABLED=true` turns everything off; `MCPKIT_TELEMETRY` picks a mode. */
export function modeFromEnvironment(requested: TelemetryMode, env: Record<string, string | undefined> | undefined): TelemetryMode {
  if (env?.['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return 'off';
  const forced = env?.['MCPKIT_TELEMETRY']?.trim().toLowerCase();
  return MODES.find((m) => m === forced) ?? requested;
}

function processEnv(): Record<string, string | undefined> | undefined {
  return typeof process === 'object' ? process.env : undefined;
}

/**
 * Starts observing every mcpkit server and client in this process. Call it once, after the
 * OpenTelemetry SDK is set up (propagators included) and before serving.
 */
export function instrument(options: InstrumentOptions = {}): Instrumentation {
  refuseUnknownKeys(options, INSTRUMENT_KEYS, 'instrument() options');
  const mode = modeFromEnvironment(options.mode ?? 'native', processEnv());
  if (mode === 'off') return { mode, disable: () => undefined };
  const telemetry = new Telemetry(mode, options);
  return { mode, disable: () => telemetry.disable() };
}

class Telemetry {
  readonly #native: boolean;
  readonly #capture: boolean;
  readonly #tracer: Tracer;
  readonly #operations: Histogram;
  readonly #sessionDurations: Histogram;
  readonly #requests = new WeakMap<RequestMessage, RequestState>();
  readonly #asks = new WeakMap<ClientRequestMessage, { span: Span | undefined }>();
  readonly #sessions = new WeakMap<object, number>();
  readonly #scope = new RequestScope();
  readonly #undo: (() => void)[] = [];

  constructor(mode: Exclude<TelemetryMode, 'off'>, options: InstrumentOptions) {
    this.#native = mode === 'native';
    this.#capture = options.captureArguments === true;
    this.#tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION);
    const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION);
    const histogram = (name: string, description: string): Histogram =>
      meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } });
    this.#operations = histogram('mcp.server.operation.duration', 'MCP request duration as observed on the server, from receipt until the answer is sent.');
    this.#sessionDurations = histogram('mcp.server.session.duration', 'The duration of the MCP session as observed on the MCP server.');
    // mcpkit/client in this process (the gateway's upstream calls included): CLIENT spans, traceparent in _meta.
    const clientDurations = histogram('mcp.client.operation.duration', 'The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.');
    this.#undo.push(instrumentClient({ native: this.#native, capture: this.#capture, tracer: this.#tracer, durations: clientDurations }));

    // The handler runs inside the request's context: spans it starts are children of the MCP span.
    this.#undo.push(
      followChannel<RequestMessage, RequestState>(REQUEST_CHANNEL, {
        start: (message) => void this.#begin(message),
        settled: (message) => this.#finish(message),
        store: { scope: this.#scope, bind: (message) => this.#begin(message) },
      }),
      followChannel<ClientRequestMessage>(CLIENT_REQUEST_CHANNEL, { start: (message) => this.#ask(message), settled: (message) => this.#answered(message) }),
    );

    if (this.#native) {
      // Notifications too: the conventions cover "request or notification" (a SERVER span and the duration metric).
      const running = new WeakMap<NotificationMessage, { span: Span; started: number }>();
      this.#undo.push(
        followChannel<NotificationMessage>(NOTIFICATION_CHANNEL, {
          start: (message) => void running.set(message, { span: this.#notificationSpan(message), started: performance.now() }),
          settled: (message) => {
            const state = running.get(message);
            if (state === undefined) return;
            running.delete(message);
            state.span.end();
            this.#operations.record((performance.now() - state.started) / 1000, notificationOperationAttributes(message));
          },
        }),
      );

      const onStart = (message: unknown): void => void this.#sessions.set((message as SessionStartMessage).connection, performance.now());
      const onEnd = (message: unknown): void => this.#sessionEnded(message as SessionEndMessage);
      channel(SESSION_START_CHANNEL).subscribe(onStart);
      channel(SESSION_END_CHANNEL).subscribe(onEnd);
      this.#undo.push(() => {
        channel(SESSION_START_CHANNEL).unsubscribe(onStart);
        channel(SESSION_END_CHANNEL).unsubscribe(onEnd);
      });
    }
  }

  disable(): void {
    for (const undo of this.#undo.splice(0)) undo();
  }

  /** Called by the store transform (first) or the start subscriber: idempotent. */
  #begin(message: RequestMessage): RequestState {
    const known = this.#requests.get(message);
    if (known !== undefined) return known;
    const ambient = context.active();
    const meta = message.meta;
    const extracted = meta === undefined ? undefined : propagation.extract(ROOT_CONTEXT, meta, metaGetter);
    const remote = extracted !== undefined && trace.getSpanContext(extracted) !== undefined;
    // The client's span (from _meta) is the parent; the transport's span (HTTP) is linked.
    const parent = remote ? extracted : ambient;
    let span: Span | undefined;
    let operation: Attributes | undefined;
    if (this.#native) {
      const ambientSpan = remote ? trace.getSpanContext(ambient) : undefined;
      operation = operationAttributes(message, message.protocolVersion);
      const options: SpanOptions = { kind: SpanKind.SERVER, attributes: serverSpanAttributes(message, operation) };
      if (ambientSpan !== undefined) options.links = [{ context: ambientSpan }];
      span = this.#tracer.startSpan(spanName(message), options, parent);
      if (this.#capture && message.targetKind === 'tool') setJson(span, ATTR.toolArguments, message.params?.['arguments']);
    }
    const state = holding({ message, span, context: span !== undefined ? trace.setSpan(parent, span) : parent, started: performance.now(), operation });
    this.#requests.set(message, state);
    return state;
  }

  #finish(message: RequestMessage): void {
    const state = this.#requests.get(message);
    if (state === undefined) return;
    this.#requests.delete(message);
    const { span } = state;
    if (span === undefined) return;
    const outcome = requestOutcome(message);
    const response = message.result;
    const result = response !== undefined && 'result' in response ? (response.result as Record<string, unknown> | undefined) : undefined;
    // initialize is served in the version it negotiated, which only its answer tells.
    const negotiated = message.negotiates === true && typeof result?.['protocolVersion'] === 'string' ? result['protocolVersion'] : message.protocolVersion;
    if (negotiated !== message.protocolVersion && negotiated !== undefined) span.setAttribute(ATTR.protocolVersion, negotiated);
    if (this.#capture && message.targetKind === 'tool' && outcome.errorType === undefined) setJson(span, ATTR.toolResult, result);
    settle(span, outcome);
    span.end();
    // Most requests end as they began: the attributes made at the start, not made again.
    let attributes = state.operation;
    if (attributes === undefined || negotiated !== message.protocolVersion || outcome.errorType !== undefined) {
      attributes = operationAttributes(message, negotiated);
      if (outcome.errorType !== undefined) attributes[ATTR.errorType] = outcome.errorType;
      if (outcome.statusCode !== undefined) attributes[ATTR.statusCode] = outcome.statusCode;
    }
    this.#operations.record((performance.now() - state.started) / 1000, attributes);
  }

  /** A notification's SERVER span, child of the sender's context from `_meta` when it carries one. */
  #notificationSpan(message: NotificationMessage): Span {
    const meta = message.meta;
    const extracted = meta === undefined ? undefined : propagation.extract(ROOT_CONTEXT, meta, metaGetter);
    const parent = extracted !== undefined && trace.getSpanContext(extracted) !== undefined ? extracted : context.active();
    return this.#tracer.startSpan(message.method, { kind: SpanKind.SERVER, attributes: notificationSpanAttributes(message) }, parent);
  }

  #ask(message: ClientRequestMessage): void {
    const parent = currentRequest();
    let carrierContext = parent?.context ?? context.active();
    let span: Span | undefined;
    if (this.#native) {
      span = this.#tracer.startSpan(message.method, { kind: SpanKind.CLIENT, attributes: clientSpanAttributes(message, parent?.message.transport) }, carrierContext);
      carrierContext = trace.setSpan(carrierContext, span);
    }
    const carrier: Record<string, string> = {};
    propagation.inject(carrierContext, carrier);
    if (Object.keys(carrier).length > 0) {
      const meta = message.params['_meta'];
      message.params = { ...message.params, _meta: { ...(typeof meta === 'object' && meta !== null ? meta : {}), ...carrier } };
    }
    this.#asks.set(message, { span });
  }

  #answered(message: ClientRequestMessage): void {
    const state = this.#asks.get(message);
    if (state === undefined) return;
    this.#asks.delete(message);
    if (state.span === undefined) return;
    const outcome = clientRequestOutcome(message);
    if (outcome !== 'input_required') settle(state.span, outcome);
    state.span.end();
  }

  #sessionEnded(message: SessionEndMessage): void {
    const started = this.#sessions.get(message.connection);
    if (started === undefined) return;
    this.#sessions.delete(message.connection);
    const attributes = sessionAttributes(message.transport, message.protocolVersion);
    this.#sessionDurations.record((performance.now() - started) / 1000, attributes);
  }

}
