/**
 * What the protocol layer calls, only once it knows someone subscribes: builds
 * the channel messages from a connection's state (docs/observability.md).
 */
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../jsonrpc/message.js';
import { isPlainObject } from '../../jsonrpc/message.js';
import type { MessageExtra } from '../connection.js';
import { paramsVersion } from '../wire/era.js';
import type { MethodFacts } from '../wire/method-facts.js';
import { traceNotification, traceRequest, type NotificationMessage, type RequestMessage } from './channels.js';

/** What the hooks read of a connection (the protocol handler fits; naming it here would import upwards). */
export interface ObservedConnection {
  readonly sessionId: string | undefined;
  readonly transport: string | undefined;
  /** What the session negotiated (a `SessionRecord`), if anything. */
  readonly record?: { readonly protocolVersion: string } | undefined;
}

/**
 * Runs `dispatch` inside the `mcpkit:request` tracing channel. Everything about
 * the method comes from its table entry (`facts`: undefined for an unknown
 * method), the revision from the era classifier.
 */
export function observeRequest<T extends JsonRpcResponse | undefined>(
  handler: ObservedConnection,
  request: JsonRpcRequest,
  facts: MethodFacts | undefined,
  extra: MessageExtra,
  dispatch: () => T | Promise<T>,
): Promise<T> {
  const params = isPlainObject(request.params) ? request.params : undefined;
  const meta = params !== undefined && isPlainObject(params['_meta']) ? params['_meta'] : undefined;
  const named = facts?.target;
  const target = named === undefined ? undefined : params?.[named.param];
  const message: RequestMessage = {
    method: request.method,
    id: request.id,
    params,
    target: typeof target === 'string' ? target : undefined,
    targetKind: typeof target === 'string' ? named!.kind : undefined,
    negotiates: facts?.negotiates === true,
    sessionId: handler.sessionId,
    protocolVersion: handler.record?.protocolVersion ?? paramsVersion(params, extra.protocolVersion, facts?.negotiates === true),
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
    protocolVersion: handler.record?.protocolVersion ?? paramsVersion(params, extra.protocolVersion),
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

