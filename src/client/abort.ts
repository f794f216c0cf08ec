/**
 * Abort fan-out: however many requests hang on one signal (the transport's
 * close signal, a caller's signal shared by many calls), that signal carries a
 * single listener. Adding one listener per request is what made 11+ concurrent
 * calls print `MaxListenersExceededWarning`; raising the limit would only hide a
 * real leak elsewhere.
 */
const fanouts = new WeakMap<AbortSignal, Set<() => void>>();

/** Runs `listener` once when `signal` aborts (at once if it has); returns the function that unlinks it. */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    listener();
    return () => undefined;
  }
  let listeners = fanouts.get(signal);
  if (listeners === undefined) {
    const set = new Set<() => void>();
    listeners = set;
    fanouts.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        fanouts.delete(signal);
        for (const run of [...set]) run();
      },
      { once: true },
    );
  }
  const set = listeners;
  // A wrapper per link, so the same function linked twice is unlinked once each.
  const run = (): void => listener();
  set.add(run);
  return () => void set.delete(run);
}

/** A signal of its own for one request, aborted with any of `parents`; `release()` unlinks it when the request is done. */
export function linkedSignal(...parents: (AbortSignal | undefined)[]): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const unlinks: (() => void)[] = [];
  for (const parent of parents) {
    if (parent === undefined) continue;
    unlinks.push(onAbort(parent, () => controller.abort(parent.reason)));
  }
  return { signal: controller.signal, release: () => unlinks.forEach((unlink) => unlink()) };
}
