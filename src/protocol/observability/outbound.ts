/**
 * The client's observability contract: `node:diagnostics_channel` channels that
 * report every request and notification `mcpkit/client` sends. Like the
 * server's (channels.ts) they are reached without importing the module, so the
 * client runs where `node:` imports are refused, and nothing is built or
 * published unless someone subscribes.
 *
 * Channel names and message fields are a stable public contract
 * (docs/observability.md); `mcpkit/otel` is one subscriber among possible others.
 */
import type * as DiagnosticsChannel from 'node:diagnostics_channel';
import type { TracingChannel } from 'node:diagnostics_channel';
import { nodeBuiltin } from '../../util/builtin.js';

const diagnostics = nodeBuiltin<typeof DiagnosticsChannel>('node:diagnostics_channel');
const silent = { start: { hasSubscribers: false }, tracePromise: (run: () => unknown) => run() } as unknown as TracingChannel<unknown, never>;
const tracingChannel = <T extends object>(name: string): TracingChannel<unknown, T> =>
  diagnostics === undefined ? silent : diagnostics.tracingChannel<unknown, T>(name);

/** `tracing:mcpkit:outbound-request:{start,end,asyncStart,asyncEnd,error}`: requests the client sends. */
export const OUTBOUND_REQUEST_CHANNEL = 'mcpkit:outbound-request';
/** `tracing:mcpkit:outbound-notification:{start,end,asyncStart,asyncEnd,error}`: notifications the client sends. */
export const OUTBOUND_NOTIFICATION_CHANNEL = 'mcpkit:outbound-notification';

/** Where the client's transport reaches the server (an in-process transport reports none). */
export interface TransportPeer {
  /** `pipe` (stdio) or `tcp` (HTTP). */
  readonly transport: 'pipe' | 'tcp';
  /** HTTP: the server's host name or address, from the URL. */
  readonly address?: string | undefined;
  /** HTTP: the server's port (the scheme's default when the URL names none). */
  readonly port?: number | undefined;
  /** HTTP, legacy revisions: the session the server assigned. */
  readonly sessionId?: string | undefined;
}

/** What an outbound request and notification report alike. */
export interface OutboundMessage {
  readonly method: string;
  /**
   * What is sent, before the client adds its own `_meta` (2026-07-28: protocol
   * version, capabilities, client info; `RequestOptions.meta` is already in).
   * A `start` subscriber may replace it (never mutate it: it is the caller's
   * object), e.g. to add trace context to `_meta`.
   */
  params: Record<string, unknown>;
  /** The revision the client speaks with the server; undefined before it is known (the first `initialize` or `server/discover`). */
  readonly protocolVersion: string | undefined;
  /** `legacy` or `modern`; undefined before the era is known. */
  readonly era: 'legacy' | 'modern' | undefined;
  readonly peer: TransportPeer | undefined;
}

/** One request the client sends, from before its id is taken to its answer. */
export interface OutboundRequestMessage extends OutboundMessage {
  /** The JSON-RPC id, set when the request is written (undefined if it failed before: limit, abort). */
  id?: number | undefined;
  /** The tool or prompt name (`tools/call`, `prompts/get`) or resource URI (`resources/*`). */
  readonly target: string | undefined;
  readonly targetKind: 'tool' | 'prompt' | 'resource' | undefined;
  /** The server's result (a `CallToolResult` may have `isError: true`). */
  result?: Record<string, unknown> | undefined;
  /** Why no result came: `McpError` (a JSON-RPC error, `code`), `McpTransportError` (`kind`: timeout, aborted, closed…). */
  error?: unknown;
}

/** One notification the client sends, until it is written. */
export interface OutboundNotificationMessage extends OutboundMessage {
  error?: unknown;
}

const requests = tracingChannel<OutboundRequestMessage>(OUTBOUND_REQUEST_CHANNEL);
const notifications = tracingChannel<OutboundNotificationMessage>(OUTBOUND_NOTIFICATION_CHANNEL);

/** `TracingChannel#hasSubscribers` is missing before Node 20.13: ask its start channel. */
export function tracingOutboundRequests(): boolean {
  return requests.start.hasSubscribers;
}

export function tracingOutboundNotifications(): boolean {
  return notifications.start.hasSubscribers;
}

/** Runs `send` with the params as `start` subscribers left them; tracePromise records `result` or `error` on the message. */
export function traceOutboundRequest<T extends Record<string, unknown>>(message: OutboundRequestMessage, send: (params: Record<string, unknown>) => Promise<T>): Promise<T> {
  return requests.tracePromise(() => send(message.params), message);
}

export function traceOutboundNotification(message: OutboundNotificationMessage, send: (params: Record<string, unknown>) => Promise<void>): Promise<void> {
  return notifications.tracePromise(() => send(message.params), message);
}
