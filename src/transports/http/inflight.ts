/**
 * Request bytes in flight per client. A request that is still running (a
 * `subscriptions/listen` stream, a tool waiting for input) keeps its parsed
 * body alive, so what one client may hold this way is bounded here; the owner
 * is the principal, else the remote address (see `quotaOwnerOf`).
 */
import { ErrorCode } from '../../jsonrpc/errors.js';
import type { JsonRpcId } from '../../jsonrpc/message.js';
import { httpError } from './errors.js';
import type { HttpResponse } from './types.js';

export const DEFAULT_MAX_INFLIGHT_BYTES_PER_CLIENT = 16 * 1024 * 1024;

/** Owners with nothing in flight kept before they are swept out. */
const MAX_IDLE_OWNERS = 1024;

export class InflightBytes {
  readonly #held = new Map<string, number>();

  constructor(readonly maxBytes: number) {}

  /**
   * Charges `bytes` to `owner` and returns the release (call it once), or the
   * 429 answer when it would pass the limit. A client with nothing in flight
   * is always admitted, so a limit below `maxBodyBytes` cannot lock it out.
   */
  charge(owner: string, bytes: number, id: JsonRpcId | undefined): (() => void) | HttpResponse {
    return this.refusal(owner, bytes, id) ?? this.hold(owner, bytes);
  }

  /** The 429 answer when `bytes` more for `owner` would pass the limit (`charge` without the charge). */
  refusal(owner: string, bytes: number, id: JsonRpcId | undefined): HttpResponse | undefined {
    const held = this.#held.get(owner) ?? 0;
    if (held === 0 || held + bytes <= this.maxBytes) return undefined;
    return httpError(
      429,
      ErrorCode.InvalidRequest,
      `Too many requests in flight: this client's running requests already hold ${held} bytes of request bodies, and this one ` +
        `(${bytes} bytes) would pass the limit of ${this.maxBytes} (maxInflightBytesPerClient); wait for their answers, or close streams you no longer read`,
      { headers: { 'retry-after': '1' }, ...(id === undefined ? {} : { id }) },
    );
  }

  /**
   * Charges `bytes` to `owner` without a check: for a request `refusal` admitted in the same
   * tick. Returns the release (call it once).
   */
  hold(owner: string, bytes: number): () => void {
    const held = this.#held.get(owner) ?? 0;
    if (held === 0 && this.#held.size >= MAX_IDLE_OWNERS) this.#sweep();
    this.#held.set(owner, held + bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // An owner back at zero keeps its entry (swept when many pile up): deleting and re-adding
      // it on every request of a steady client was most of this quota's cost per request.
      this.#held.set(owner, Math.max(0, (this.#held.get(owner) ?? bytes) - bytes));
    };
  }

  #sweep(): void {
    for (const [owner, held] of this.#held) if (held === 0) this.#held.delete(owner);
  }

  /** Bytes `owner` holds in flight (for tests and metrics). */
  heldBy(owner: string): number {
    return this.#held.get(owner) ?? 0;
  }
}
