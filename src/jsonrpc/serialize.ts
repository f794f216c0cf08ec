/**
 * Serialising outgoing messages. Results and error data come from handlers and
 * may echo what a client sent: a value nested thousands deep, a cycle, a BigInt
 * or a throwing `toJSON` makes JSON.stringify throw. Every transport serialises
 * through here, so such a response fails its own request only, as -32603.
 */
import { ErrorCode, errorResponseFrom, JsonRpcProtocolError } from './errors.js';
import { isValidId, type JsonRpcErrorResponse } from './message.js';
import { encodeJson } from './preset-json.js';

/** A notification or server→client request that cannot be serialised: the caller that sent it gets this error. */
export class UnserializableMessageError extends TypeError {
  override readonly name = 'UnserializableMessageError';
  constructor(method: string) {
    super(`${method} could not be serialised as JSON (a cyclic, too deeply nested or BigInt value); it was not sent`);
  }
}

const UNSERIALISABLE = 'Internal error: the response could not be serialised as JSON';

/** The -32603 answer that replaces a response whose result or error data cannot be serialised. */
export function unserializableResponse(message: unknown): JsonRpcErrorResponse {
  const record = typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : {};
  const method = record['method'];
  if (typeof method === 'string') throw new UnserializableMessageError(method);
  const id = record['id'];
  return errorResponseFrom(isValidId(id) ? id : null, new JsonRpcProtocolError(ErrorCode.InternalError, UNSERIALISABLE));
}

/**
 * One message as JSON. A response that cannot be serialised becomes a -32603
 * error response for the same id; anything else throws UnserializableMessageError.
 */
export function encodeMessage(message: unknown): string {
  try {
    return encodeJson(message);
  } catch {
    return JSON.stringify(unserializableResponse(message));
  }
}

/** A batch answer: only the entries that cannot be serialised are replaced. */
export function encodeBatch(messages: readonly unknown[]): string {
  try {
    return encodeJson(messages);
  } catch {
    return `[${messages.map(encodeMessage).join(',')}]`;
  }
}
