/**
 * The OpenTelemetry semantic conventions for MCP (gen-ai/mcp.md, status:
 * development) as mcpkit applies them: span names, attributes, error.type.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ClientRequestMessage, NotificationMessage, RequestMessage } from '../protocol/observability/channels.js';

export const ATTR = {
  method: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operation: 'gen_ai.operation.name',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  transport: 'network.transport',
  protocolName: 'network.protocol.name',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  protocolVersionNetwork: 'network.protocol.version',
  clientAddress: 'client.address',
  clientPort: 'client.port',
  serverAddress: 'server.address',
  serverPort: 'server.port',
} as const;

/** Bucket boundaries (seconds) the conventions advise for every MCP duration histogram. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** `{mcp.method.name} {target}`: tool and prompt names only (resource URIs are high-cardinality). */
export function spanName(message: RequestMessage): string {
  return message.target !== undefined && (message.targetKind === 'tool' || message.targetKind === 'prompt') ? `${message.method} ${message.target}` : message.method;
}

/** stdio is a pipe; HTTP runs over TCP. */
function transportAttributes(transport: string | undefined, into: Attributes): void {
  if (transport === 'stdio') into[ATTR.transport] = 'pipe';
  else if (transport === 'http') {
    into[ATTR.transport] = 'tcp';
    into[ATTR.protocolName] = 'http';
  }
}

/** The attributes of `mcp.server.session.duration`. */
export function sessionAttributes(transport: string | undefined, protocolVersion: string | undefined): Attributes {
  const attributes: Attributes = {};
  if (protocolVersion !== undefined) attributes[ATTR.protocolVersion] = protocolVersion;
  transportAttributes(transport, attributes);
  return attributes;
}

/** What both the span and the duration metric carry (low cardinality). */
export function operationAttributes(message: RequestMessage, protocolVersion: string | undefined): Attributes {
  const attributes: Attributes = { [ATTR.method]: message.method };
  if (message.target !== undefined) {
    if (message.targetKind === 'tool') {
      attributes[ATTR.toolName] = message.target;
      attributes[ATTR.operation] = 'execute_tool';
    } else if (message.targetKind === 'prompt') attributes[ATTR.promptName] = message.target;
  }
  if (protocolVersion !== undefined) attributes[ATTR.protocolVersion] = protocolVersion;
  transportAttributes(message.transport, attributes);
  if (message.networkProtocolVersion !== undefined) attributes[ATTR.protocolVersionNetwork] = message.networkProtocolVersion;
  return attributes;
}

/** The span's own attributes on top of the operation's (`operationAttributes`, not changed): ids and the resource URI. */
export function serverSpanAttributes(message: RequestMessage, operation: Attributes): Attributes {
  const attributes: Attributes = { ...operation };
  if (message.id !== null) attributes[ATTR.requestId] = String(message.id);
  if (message.sessionId !== undefined) attributes[ATTR.sessionId] = message.sessionId;
  if (message.target !== undefined && message.targetKind === 'resource') attributes[ATTR.resourceUri] = message.target;
  peerAttributes(message, attributes);
  return attributes;
}

/** Over HTTP: `client.address`, `client.port` (the forwarded client's with trustProxy) and `network.protocol.version`. */
function peerAttributes(message: Pick<NotificationMessage, 'clientAddress' | 'clientPort' | 'networkProtocolVersion'>, into: Attributes): void {
  if (message.clientAddress !== undefined) into[ATTR.clientAddress] = message.clientAddress;
  if (message.clientPort !== undefined) into[ATTR.clientPort] = message.clientPort;
  if (message.networkProtocolVersion !== undefined) into[ATTR.protocolVersionNetwork] = message.networkProtocolVersion;
}

/** A notification's metric attributes (low cardinality): its method, revision and transport. */
export function notificationOperationAttributes(message: NotificationMessage): Attributes {
  const attributes: Attributes = { [ATTR.method]: message.method };
  if (message.protocolVersion !== undefined) attributes[ATTR.protocolVersion] = message.protocolVersion;
  transportAttributes(message.transport, attributes);
  if (message.networkProtocolVersion !== undefined) attributes[ATTR.protocolVersionNetwork] = message.networkProtocolVersion;
  return attributes;
}

/** A notification's SERVER span attributes: no request id, the session, the peer. */
export function notificationSpanAttributes(message: NotificationMessage): Attributes {
  const attributes = notificationOperationAttributes(message);
  if (message.sessionId !== undefined) attributes[ATTR.sessionId] = message.sessionId;
  peerAttributes(message, attributes);
  return attributes;
}

export function clientSpanAttributes(message: ClientRequestMessage, transport: string | undefined): Attributes {
  const attributes: Attributes = { [ATTR.method]: message.method, [ATTR.protocolVersion]: message.protocolVersion };
  if (message.sessionId !== undefined) attributes[ATTR.sessionId] = message.sessionId;
  transportAttributes(transport, attributes);
  return attributes;
}

export interface Outcome {
  /** `error.type`: the JSON-RPC code, `tool_error`, `timeout`, `cancelled`, or the error's class. */
  errorType?: string;
  /** The JSON-RPC code as a string, when the answer carried one. */
  statusCode?: string;
  message?: string;
}

/** How an inbound request ended, read from the response written for it. */
export function requestOutcome(message: RequestMessage): Outcome {
  if (message.error !== undefined) return { errorType: errorClass(message.error), message: errorMessage(message.error) };
  const response = message.result;
  if (response === undefined) return { errorType: 'cancelled' };
  if ('error' in response) {
    const code = String(response.error.code);
    return { errorType: code, statusCode: code, message: response.error.message };
  }
  const result = response.result as { isError?: unknown } | undefined;
  if (message.targetKind === 'tool' && result?.isError === true) return { errorType: 'tool_error' };
  return {};
}

/** How a server→client request ended; an MRTR round handing it to the client is not a failure. */
export function clientRequestOutcome(message: ClientRequestMessage): Outcome | 'input_required' {
  const error = message.error;
  if (error === undefined) return {};
  if (error instanceof Error && error.name === 'InputRequiredSignal') return 'input_required';
  const code = (error as { code?: unknown }).code;
  if (error instanceof Error && error.name === 'ClientRequestError' && typeof code === 'number') {
    return { errorType: String(code), statusCode: String(code), message: error.message };
  }
  if (error instanceof Error && error.name === 'ClientRequestTimeoutError') return { errorType: 'timeout', message: error.message };
  return { errorType: errorClass(error), message: errorMessage(error) };
}

function errorClass(error: unknown): string {
  return error instanceof Error ? error.name : '_OTHER';
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
