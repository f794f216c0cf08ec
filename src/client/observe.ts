/**
 * What the client publishes on its diagnostics channels (protocol/observability/outbound.ts),
 * built only once someone subscribes: the uninstrumented path pays one property read.
 */
import { isPlainObject } from '../jsonrpc/message.js';
import {
  traceOutboundNotification,
  traceOutboundRequest,
  type OutboundMessage,
  type OutboundRequestMessage,
} from '../protocol/observability/outbound.js';
import { PROMPT_TARGET, RESOURCE_TARGET, TOOL_TARGET, type Era, type MethodTarget } from '../protocol/wire/method-facts.js';
import type { Json } from './options.js';
import type { ClientTransport } from './transport.js';

export { tracingOutboundNotifications, tracingOutboundRequests } from '../protocol/observability/outbound.js';

const TARGETS: Readonly<Record<string, MethodTarget | undefined>> = {
  'tools/call': TOOL_TARGET,
  'prompts/get': PROMPT_TARGET,
  'resources/read': RESOURCE_TARGET,
  'resources/subscribe': RESOURCE_TARGET,
  'resources/unsubscribe': RESOURCE_TARGET,
};

/** The connection facts every message reports. */
export interface Connected {
  readonly transport: ClientTransport;
  readonly era: Era | undefined;
  readonly protocolVersion: string | undefined;
}

function outbound(method: string, params: Json, meta: Json | undefined, at: Connected): OutboundMessage {
  // RequestOptions.meta is folded in so a subscriber sees every key the caller set (their traceparent wins).
  const given = isPlainObject(params['_meta']) ? params['_meta'] : undefined;
  const merged = meta === undefined ? params : { ...params, _meta: { ...given, ...meta } };
  return { method, params: merged, protocolVersion: at.protocolVersion, era: at.era, peer: at.transport.peer?.() };
}

/** Sends a request inside `tracing:mcpkit:outbound-request`; `send` gets the params as subscribers left them. */
export function observeRequest(method: string, params: Json, meta: Json | undefined, at: Connected, send: (params: Json, message: OutboundRequestMessage) => Promise<Json>): Promise<Json> {
  const named = TARGETS[method];
  const target = named === undefined ? undefined : params[named.param];
  const message: OutboundRequestMessage = {
    ...outbound(method, params, meta, at),
    target: typeof target === 'string' ? target : undefined,
    targetKind: typeof target === 'string' ? named!.kind : undefined,
  };
  return traceOutboundRequest(message, (current) => send(current, message));
}

export function observeNotification(method: string, params: Json | undefined, at: Connected, send: (params: Json | undefined) => Promise<void>): Promise<void> {
  const sent = params ?? {};
  const message = outbound(method, sent, undefined, at);
  // A notification without params stays without unless a subscriber added some.
  return traceOutboundNotification(message, (current) => send(params === undefined && current === sent ? undefined : current));
}
