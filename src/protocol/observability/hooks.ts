/**
 * What the protocol layer calls, only once it knows someone subscribes: builds
 * the channel messages from a connection's state (docs/observability.md).
 */
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../jsonrpc/message.js';
import { isPlainObject } from '../../jsonrpc/message.js';
import type { MessageExtra } from '../connection.js';
import { META_PROTOCOL_VERSION } from '../wire/meta-keys.js';
import { LATEST_LEGACY_VERSION } from '../wire/versions.js';
import { traceNotification, traceRequest, type NotificationMessage, type RequestMessage } from './channels.js';

/** What the hooks read of a connection (the protocol handler fits; naming it here would import upwards). */
export interface ObservedConnection {
  readonly sessionId: string | undefined;
  readonly transport: string | undefined;
  /** What the session negotiated (a `SessionRecord`), if anything. */
  readonly record?: { readonly protocolVersion: string } | undefined;
}

/** Runs `dispatch` inside the `mcpkit:request` tracing channel. */
export function observeRequest(
  handler: ObservedConnection,
  request: JsonRpcRequest,
  extra: MessageExtra,
  dispatch: () => Promise<JsonRpcResponse | undefined>,
): Promise<JsonRpcResponse | undefined> {
  const params = isPlainObject(request.params) ? request.params : undefined;
  const meta = params !== undefined && isPlainObject(params['_meta']) ? params['_meta'] : undefined;
  const target = params?.[request.method.startsWith('resources/') ? 'uri' : 'name'];
  const message: RequestMessage = {
    method: request.method,
    id: request.id,
    params,
    target: typeof target === 'string' && hasTarget(request.method) ? target : undefined,
    sessionId: handler.sessionId,
    protocolVersion: protocolVersionOf(handler, request.method, params, meta, extra.protocolVersion),
    transport: extra.requestInfo !== undefined ? 'http' : handler.transport,
    meta,
    ...peerOf(extra),
  };
  return traceRequest(message, dispatch);
}

/** Runs a notification's handling inside the `mcpkit:notification` tracing channel. */
export function observeNotification(handler: ObservedConnection, notification: JsonRpcNotification, extra: MessageExtra, handle: () => Promise<void>): Promise<void> {
  const params = isPlainObject(notification.params) ? notification.params : undefined;
  const meta = params !== undefined && isPlainObject(params['_meta']) ? params['_meta'] : undefined;
  const message: NotificationMessage = {
    method: notification.method,
    params,
    sessionId: handler.sessionId,
    protocolVersion: protocolVersionOf(handler, notification.method, params, meta, extra.protocolVersion),
    transport: extra.requestInfo !== undefined ? 'http' : handler.transport,
    meta,
    ...peerOf(extra),
  };
  return traceNotification(message, handle);
}

/** Who sent it, over HTTP (`client.address`, `client.port`, `network.protocol.version`). */
function peerOf(extra: MessageExtra): { clientAddress?: string; clientPort?: number; networkProtocolVersion?: string } {
  const info = extra.requestInfo;
  const peer: { clientAddress?: string; clientPort?: number; networkProtocolVersion?: string } = {};
  if (info?.clientAddress !== undefined) peer.clientAddress = info.clientAddress;
  if (info?.clientPort !== undefined) peer.clientPort = info.clientPort;
  if (info?.httpVersion !== undefined) peer.networkProtocolVersion = info.httpVersion;
  return peer;
}

function hasTarget(method: string): boolean {
  return method === 'tools/call' || method === 'prompts/get' || method === 'resources/read' || method === 'resources/subscribe' || method === 'resources/unsubscribe';
}

/** The revision this request is served in, by the rule `resolveEra` applies (best effort: never throws). */
function protocolVersionOf(
  handler: ObservedConnection,
  method: string,
  params: Record<string, unknown> | undefined,
  meta: Record<string, unknown> | undefined,
  header: string | undefined,
): string | undefined {
  const record = handler.record;
  if (record !== undefined) return record.protocolVersion;
  const metaVersion = meta?.[META_PROTOCOL_VERSION];
  if (typeof metaVersion === 'string') return metaVersion;
  if (method === 'initialize' && typeof params?.['protocolVersion'] === 'string') return params['protocolVersion'];
  return header ?? LATEST_LEGACY_VERSION;
}
