/**
 * Lets the process exit while `timer` is pending, where the runtime can say so. Node and Bun return a
 * Timeout object with `unref()`; Deno, browsers and Workers (without nodejs_compat, or before its
 * 2026-02-15 timers) return a number, which has nothing to release and must not be called.
 */
export function unrefTimer<T>(timer: T): T {
  if (typeof timer === 'object' && timer !== null) {
    const { unref } = timer as { unref?: unknown };
    if (typeof unref === 'function') (unref as () => unknown).call(timer);
  }
  return timer;
}
