/**
 * An abort flag that creates its AbortSignal only when someone asks for it:
 * most requests finish without anyone reading `ctx.signal`, and an
 * AbortController per request is a measurable share of a tools/call.
 */
export class LazyAbort {
  aborted = false;
  reason: unknown = undefined;
  #controller: AbortController | undefined;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.#controller?.abort(reason);
  }
}
