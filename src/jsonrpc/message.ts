/**
 * JSON-RPC 2.0 message shapes. This layer knows nothing about MCP.
 * An `id` property that is present — `null` included — makes a request.
 */

export type JsonRpcId = string | number | null;

export type JsonRpcParams = Record<string, unknown> | unknown[];

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: JsonRpcParams;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonRpcParams;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccessResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** What one inbound message turned out to be after envelope validation. */
export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; id: JsonRpcId; reason: string };

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** A JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON-RPC ids are strings, integers or null (fractional numbers SHOULD NOT be used; we refuse them). */
export function isValidId(id: unknown): id is JsonRpcId {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/** The id to answer with when the envelope itself is bad: the request's own id if it is usable, else null. */
function salvageId(value: Record<string, unknown>): JsonRpcId {
  const id = value['id'];
  return isValidId(id) ? id : null;
}

/**
 * Hand-written envelope check (no schema library on the hot path).
 * Never throws, whatever the input.
 */
export function classify(value: unknown): Classified {
  if (!isPlainObject(value)) {
    return { kind: 'invalid', id: null, reason: 'a JSON-RPC message must be a JSON object' };
  }
  if (value['jsonrpc'] !== '2.0') {
    return { kind: 'invalid', id: salvageId(value), reason: 'the "jsonrpc" member must be exactly "2.0"' };
  }
  const hasId = hasOwn(value, 'id');
  if (hasId && !isValidId(value['id'])) {
    return { kind: 'invalid', id: null, reason: 'the "id" member must be a string, an integer or null' };
  }
  if (hasOwn(value, 'method')) {
    const method = value['method'];
    if (typeof method !== 'string') {
      return { kind: 'invalid', id: salvageId(value), reason: 'the "method" member must be a string' };
    }
    const params = value['params'];
    if (params !== undefined && (typeof params !== 'object' || params === null)) {
      return { kind: 'invalid', id: salvageId(value), reason: 'the "params" member must be an object or an array' };
    }
    return hasId
      ? { kind: 'request', message: value as unknown as JsonRpcRequest }
      : { kind: 'notification', message: value as unknown as JsonRpcNotification };
  }
  if (hasId && (hasOwn(value, 'result') !== hasOwn(value, 'error'))) {
    if (hasOwn(value, 'error')) {
      const error = value['error'];
      if (!isPlainObject(error) || typeof error['code'] !== 'number' || typeof error['message'] !== 'string') {
        return { kind: 'invalid', id: salvageId(value), reason: 'the "error" member must have a numeric "code" and a string "message"' };
      }
    }
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  return { kind: 'invalid', id: salvageId(value), reason: 'the "method" member is missing' };
}
