import type { AbortSignalLike } from '../connection.js';

/** What a listener removed while the flag's listeners run leaves in its place. */
const SKIP = (): void => undefined;

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
export class LazyAbort implements AbortSignalLike {
  #aborted = false;
  /** Listeners added straight to the flag (AbortSignalLike): no AbortController for them. */
  #listeners: (() => void)[] | undefined;
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

  /** True once `signal` was read: its AbortController exists. */
  get hasSignal(): boolean {
    return this.#controller !== undefined;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.#reason);
      else this.#follow();
    }
    return this.#controller.signal;
  }

  /**
   * As an AbortSignal's: `listener` runs once, when the flag aborts; on a flag already aborted it
   * never runs. What holds the flag this way (a proxied call's upstream request) needs no AbortSignal.
   */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted) return;
    const listeners = (this.#listeners ??= []);
    // Added twice, it runs once and one removal unlinks it, as on an EventTarget.
    if (!listeners.includes(listener)) listeners.push(listener);
    this.#follow();
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.#listeners;
    const at = listeners === undefined ? -1 : listeners.indexOf(listener);
    if (at === -1) return;
    // While they run (aborted), a removed one is skipped: its slot is emptied, the others keep their places.
    if (this.#aborted) listeners![at] = SKIP;
    else listeners!.splice(at, 1);
  }

  #follow(): void {
    const parent = this.#parent;
    if (parent === undefined || this.#onParentAbort !== undefined) return;
    parent.addEventListener('abort', (this.#onParentAbort = () => this.abort(parent.reason)), { once: true });
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
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    // Kept while they run, so that one removed by an earlier one is skipped (as on an EventTarget).
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i]!();
      } catch {
        // Internal listeners that settle a request; one that throws must not keep the others from running.
      }
    }
    this.#listeners = undefined;
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
