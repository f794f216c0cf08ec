import type { AbortSignalLike } from '../connection.js';

/**
 * An abort flag that creates its AbortSignal only when someone asks for it:
 * most requests finish without anyone reading `ctx.signal`, and an
 * AbortController per request is a measurable share of a tools/call.
 *
 * It follows the transport's signal (`parent`, e.g. an HTTP client gone) the
 * same lazy way: the parent is read whenever this flag is, and listened to only
 * once someone holds the AbortSignal. A listener closure per waiting call, made
 * at once, cost the async path dearly: over HTTP with 32 calls in flight the
 * closures (and the request state they held) came to be allocated straight in
 * the old generation, where they kept about 1 MiB of young objects alive per
 * scavenge and 2–3 KiB per request got promoted (docs/performance.md).
 */
export class LazyAbort {
  #aborted = false;
  #reason: unknown = undefined;
  #controller: AbortController | undefined;
  #parent: AbortSignalLike | undefined;
  #onParentAbort: (() => void) | undefined;

  constructor(parent?: AbortSignalLike) {
    this.#parent = parent;
  }

  get aborted(): boolean {
    if (this.#aborted) return true;
    const parent = this.#parent;
    if (parent?.aborted !== true) return false;
    this.abort(parent.reason);
    return true;
  }

  get reason(): unknown {
    return this.aborted ? this.#reason : undefined;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.#reason);
      else {
        const parent = this.#parent;
        if (parent !== undefined) parent.addEventListener('abort', (this.#onParentAbort = () => this.abort(parent.reason)), { once: true });
      }
    }
    return this.#controller.signal;
  }

  /** First reason wins; a parent that aborted before (unread) was first. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    const parent = this.#parent;
    if (parent?.aborted === true) reason = parent.reason;
    this.#aborted = true;
    this.#reason = reason;
    this.#unfollow();
    this.#controller?.abort(reason);
  }

  /**
   * Stops following the parent (the request is answered): what it decided so far stays, a later
   * abort of the parent no longer reaches this request.
   */
  detach(): void {
    if (this.#parent === undefined) return;
    void this.aborted;
    this.#unfollow();
  }

  #unfollow(): void {
    const parent = this.#parent;
    this.#parent = undefined;
    const listener = this.#onParentAbort;
    this.#onParentAbort = undefined;
    if (parent !== undefined && listener !== undefined) parent.removeEventListener('abort', listener);
  }
}
