/**
 * What the protocol layer calls, only once it knows someone subscribes: builds
 * the channel messages from a connection's state (docs/observability.md).
 */
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../jsonrpc/message.js';
import { isPlainObject } from '../../jsonrpc/message.js';
import type { MessageExtra } from '../connection.js';
import { paramsVersion } from '../wire/era.js';
import type { MethodFacts } from '../wire/method-facts.js';
import { traceNotification, traceRequest, type InboundMessage, type RequestMessage } from './channels.js';

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
): T | Promise<T> {
  const params = isPlainObject(request.params) ? request.params : undefined;
  const negotiates = facts?.negotiates === true;
  const named = facts?.target;
  const target = named === undefined ? undefined : params?.[named.param];
  const info = extra.requestInfo;
  // One object of one shape (no spreads): every traced request makes it.
  const message: RequestMessage = {
    method: request.method,
    params,
    sessionId: handler.sessionId,
    protocolVersion: handler.record?.protocolVersion ?? paramsVersion(params, extra.protocolVersion, negotiates),
    transport: info !== undefined ? 'http' : handler.transport,
    meta: params !== undefined && isPlainObject(params['_meta']) ? params['_meta'] : undefined,
    clientAddress: info?.clientAddress,
    clientPort: info?.clientPort,
    networkProtocolVersion: info?.httpVersion,
    id: request.id,
    target: typeof target === 'string' ? target : undefined,
    targetKind: typeof target === 'string' ? named!.kind : undefined,
    negotiates,
  };
  return traceRequest(message, dispatch);
}

/** Runs a notification's handling inside the `mcpkit:notification` tracing channel. */
export function observeNotification(handler: ObservedConnection, notification: JsonRpcNotification, extra: MessageExtra, handle: () => Promise<void>): Promise<void> {
  return traceNotification(inboundOf(handler, notification, extra, false), handle);
}

/** What requests and notifications report alike: the method, params, session, revision and peer. */
function inboundOf(handler: ObservedConnection, message: JsonRpcRequest | JsonRpcNotification, extra: MessageExtra, negotiates: boolean): InboundMessage {
  const params = isPlainObject(message.params) ? message.params : undefined;
  return {
    method: message.method,
    params,
    sessionId: handler.sessionId,
    protocolVersion: handler.record?.protocolVersion ?? paramsVersion(params, extra.protocolVersion, negotiates),
    transport: extra.requestInfo !== undefined ? 'http' : handler.transport,
    meta: params !== undefined && isPlainObject(params['_meta']) ? params['_meta'] : undefined,
    ...peerOf(extra),
  };
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

