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

type Immediate = (callback: () => void) => unknown;
const immediate = (globalThis as { setImmediate?: Immediate }).setImmediate;

/** Runs `callback` once pending I/O callbacks have run: setImmediate where it exists, else a 0 ms timer (Workers). */
export const afterIo: Immediate = typeof immediate === 'function' ? (callback) => immediate(callback) : (callback) => setTimeout(callback, 0);
