/**
 * What the protocol layer calls, only once it knows someone subscribes: builds
 * the channel messages from a connection's state (docs/observability.md).
 */
import type { JsonRpcRequest, JsonRpcResponse } from '../../jsonrpc/message.js';
import { isPlainObject } from '../../jsonrpc/message.js';
import type { MessageExtra } from '../connection.js';
import { paramsVersion } from '../wire/era.js';
import type { MethodFacts } from '../wire/method-facts.js';
import { traceRequest, type RequestMessage } from './channels.js';

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
  };
  return traceRequest(message, dispatch);
}
