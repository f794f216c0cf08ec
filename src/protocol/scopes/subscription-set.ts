import { ErrorCode, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import { utf8Length } from '../../util/bytes.js';

/** Defaults of the per-session subscription limits (see docs/limits.md). */
export const DEFAULT_MAX_SUBSCRIPTIONS = 1000;
export const DEFAULT_MAX_SUBSCRIPTION_BYTES = 256 * 1024;

export interface SubscriptionLimits {
  /** Most resource URIs one session (or one `subscriptions/listen` stream) may subscribe to. */
  maxSubscriptions: number;
  /** Most bytes (UTF-8 URIs) those subscriptions may hold. */
  maxSubscriptionBytes: number;
}

/**
 * The resource URIs one legacy session subscribed to, bounded in count and
 * bytes; released with the session.
 */
export class SubscriptionSet {
  readonly #uris = new Set<string>();
  #bytes = 0;

  get size(): number {
    return this.#uris.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  has(uri: string): boolean {
    return this.#uris.has(uri);
  }

  /** Adds `uri`; over a limit it throws -32603 naming the limit and changes nothing. */
  add(uri: string, limits: SubscriptionLimits): void {
    if (this.#uris.has(uri)) return;
    const bytes = utf8Length(uri);
    if (this.#uris.size >= limits.maxSubscriptions) {
      throw limitError(`Too many subscriptions: this session already has ${this.#uris.size} (the limit is ${limits.maxSubscriptions}); unsubscribe from some first`, 'maxSubscriptions');
    }
    if (this.#bytes + bytes > limits.maxSubscriptionBytes) {
      throw limitError(`Too many subscriptions: this session's subscribed URIs would hold more than ${limits.maxSubscriptionBytes} bytes; unsubscribe from some first`, 'maxSubscriptionBytes');
    }
    this.#uris.add(uri);
    this.#bytes += bytes;
  }

  delete(uri: string): void {
    if (this.#uris.delete(uri)) this.#bytes -= utf8Length(uri);
  }

  clear(): void {
    this.#uris.clear();
    this.#bytes = 0;
  }
}

function limitError(message: string, limit: string): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InternalError, message, { limit });
}
