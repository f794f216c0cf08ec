/**
 * The observability contract: `node:diagnostics_channel` channels that report
 * every inbound request, every server→client request and every session.
 * Nothing is built or published unless someone subscribes, so a server
 * without a subscriber pays one property read per request.
 *
 * Channel names and message fields are a stable public contract
 * (docs/observability.md); `mcpkit/otel` is one subscriber among possible others.
 */
import type * as DiagnosticsChannel from 'node:diagnostics_channel';
import type { Channel, TracingChannel } from 'node:diagnostics_channel';
import type { JsonRpcId, JsonRpcResponse } from '../../jsonrpc/message.js';
import { nodeBuiltin } from '../../util/builtin.js';
import { isThenable } from '../../util/thenable.js';

/**
 * node:diagnostics_channel where the runtime has it, reached without importing it (a Worker without
 * nodejs_compat refuses any `node:` import); elsewhere channels nobody can subscribe to.
 */
const diagnostics = nodeBuiltin<typeof DiagnosticsChannel>('node:diagnostics_channel') ?? {
  channel: () => ({ hasSubscribers: false, publish: () => undefined }) as unknown as Channel,
  tracingChannel: () => ({ start: { hasSubscribers: false }, tracePromise: (run: () => unknown) => run() }) as unknown as TracingChannel<unknown, never>,
};
const { channel, tracingChannel } = diagnostics;

/** `tracing:mcpkit:request:{start,end,asyncStart,asyncEnd,error}` */
export const REQUEST_CHANNEL = 'mcpkit:request';
/** `tracing:mcpkit:notification:{start,end,asyncStart,asyncEnd,error}`: inbound notifications. */
export const NOTIFICATION_CHANNEL = 'mcpkit:notification';
/** `tracing:mcpkit:client-request:{start,end,asyncStart,asyncEnd,error}` */
export const CLIENT_REQUEST_CHANNEL = 'mcpkit:client-request';
export const SESSION_START_CHANNEL = 'mcpkit:session:start';
export const SESSION_END_CHANNEL = 'mcpkit:session:end';

/** How a request reached the server: `stdio`, `http`, or undefined for an in-process connection. */
export type TransportName = string | undefined;

/** What every inbound message reports: a request's or a notification's method, params, session and peer. */
export interface InboundMessage {
  readonly method: string;
  /** The message's params, as received (never modified). */
  readonly params: Record<string, unknown> | undefined;
  /** The legacy (Streamable HTTP) session; 2026-07-28 requests and stdio have none. */
  readonly sessionId: string | undefined;
  /** The revision the message is served in (for `initialize`: the one the client asked for). */
  readonly protocolVersion: string | undefined;
  readonly transport: TransportName;
  /** `params._meta`, where trace context (`traceparent`, `tracestate`, `baggage`) travels. */
  readonly meta: Record<string, unknown> | undefined;
  /** HTTP only: the client's address (with `trustProxy`, the forwarded client's), when known. */
  readonly clientAddress?: string | undefined;
  /** HTTP only: the client's port, when known. */
  readonly clientPort?: number | undefined;
  /** HTTP only: the HTTP version (`1.1`, `2`), when the adapter knows it. */
  readonly networkProtocolVersion?: string | undefined;
}

/** One inbound JSON-RPC request, from arrival to the answer written for it. */
export interface RequestMessage extends InboundMessage {
  readonly id: JsonRpcId;
  /** The tool or prompt name (`tools/call`, `prompts/get`) or resource URI (`resources/*`): the method table's `target` fact. */
  readonly target: string | undefined;
  /** What `target` names (`tool`, `prompt`, `resource`); undefined with no target. */
  readonly targetKind?: 'tool' | 'prompt' | 'resource' | undefined;
  /** The request negotiates a session (`initialize`): its result names the revision agreed on. */
  readonly negotiates?: boolean;
  /**
   * Set by the channel when the request is done: the response written, or
   * undefined when it gets none (cancelled by the client).
   */
  result?: JsonRpcResponse | undefined;
  /** Set only if dispatch itself failed unexpectedly (requests otherwise always end with a response). */
  error?: unknown;
}

/** One inbound notification (`notifications/initialized`, `notifications/cancelled`, …), until it is handled. */
export type NotificationMessage = InboundMessage;

/** One server→client request: `elicitation/create`, `sampling/createMessage`, `roots/list`. */
export interface ClientRequestMessage {
  readonly method: string;
  /**
   * What is sent to the client. A `start` subscriber may replace it (never
   * mutate it: it is the author's object), e.g. to add trace context to `_meta`.
   */
  params: Record<string, unknown>;
  /**
   * `legacy`: a JSON-RPC request on the session. `modern`: an input request of
   * a 2026-07-28 multi round-trip request; when it ends with an `error` named
   * `InputRequiredSignal`, the request went to the client inside an
   * InputRequiredResult (that is not a failure).
   */
  readonly era: 'legacy' | 'modern';
  /** The inbound request this one is made for. */
  readonly requestId: JsonRpcId;
  readonly requestMethod: string;
  readonly sessionId: string | undefined;
  readonly protocolVersion: string;
  /** The client's answer. */
  result?: unknown;
  /** Why no answer came (client error, timeout, cancellation, or InputRequiredSignal). */
  error?: unknown;
}

export interface SessionStartMessage {
  /** An opaque key, the same object at start and end (stdio has no session id). */
  readonly connection: object;
  /** The HTTP session id; undefined for stdio and in-process connections. */
  readonly sessionId: string | undefined;
  readonly transport: TransportName;
}

export interface SessionEndMessage extends SessionStartMessage {
  /** What `initialize` negotiated; undefined if it never completed. */
  readonly protocolVersion: string | undefined;
  readonly reason: string;
}

const requests: TracingChannel<unknown, RequestMessage> = tracingChannel(REQUEST_CHANNEL);
const clientRequests: TracingChannel<unknown, ClientRequestMessage> = tracingChannel(CLIENT_REQUEST_CHANNEL);
const notifications: TracingChannel<unknown, NotificationMessage> = tracingChannel(NOTIFICATION_CHANNEL);
const sessionStart: Channel = channel(SESSION_START_CHANNEL);
const sessionEnd: Channel = channel(SESSION_END_CHANNEL);

/** `TracingChannel#hasSubscribers` is missing before Node 20.13: ask its start channel. */
export function tracingRequests(): boolean {
  return requests.start.hasSubscribers;
}

export function tracingNotifications(): boolean {
  return notifications.start.hasSubscribers;
}

export function traceNotification(message: NotificationMessage, run: () => Promise<void>): Promise<void> {
  return notifications.tracePromise(run, message);
}

export function tracingClientRequests(): boolean {
  return clientRequests.start.hasSubscribers;
}

/**
 * Publishes what `tracePromise` publishes (start, end, then asyncStart and asyncEnd with `result`, or
 * error), but a request answered synchronously gets all four within the call and its answer back as
 * it is: no promise, no microtask, and the transport keeps its path for an answer ready at once
 * (tracePromise made every traced request a waiting one).
 */
export function traceRequest<T extends JsonRpcResponse | undefined>(message: RequestMessage, run: () => T | Promise<T>): T | Promise<T> {
  return requests.start.runStores(message, () => {
    let outcome: T | Promise<T>;
    try {
      outcome = run();
    } catch (error) {
      message.error = error;
      requests.error.publish(message);
      requests.end.publish(message);
      throw error;
    }
    requests.end.publish(message);
    if (!isThenable(outcome)) return answered(message, outcome);
    return Promise.resolve(outcome).then(
      (result) => answered(message, result),
      (error: unknown) => {
        message.error = error;
        requests.error.publish(message);
        requests.asyncStart.publish(message);
        requests.asyncEnd.publish(message);
        throw error;
      },
    );
  });
}

function answered<T extends JsonRpcResponse | undefined>(message: RequestMessage, result: T): T {
  message.result = result;
  requests.asyncStart.publish(message);
  requests.asyncEnd.publish(message);
  return result;
}

export function traceClientRequest(message: ClientRequestMessage, run: (params: Record<string, unknown>) => Promise<unknown>): Promise<unknown> {
  // Read params after `start`: a subscriber may have replaced them.
  return clientRequests.tracePromise(() => run(message.params), message);
}

export function publishSessionStart(message: SessionStartMessage): void {
  if (sessionStart.hasSubscribers) sessionStart.publish(message);
}

export function publishSessionEnd(message: SessionEndMessage): void {
  if (sessionEnd.hasSubscribers) sessionEnd.publish(message);
}
