import type { AbortSignalLike } from '../protocol/connection.js';
import { LazyAbort } from '../protocol/request/abort.js';
import type { OutboundInfo } from './transport.js';

/**
 * Abort fan-out: however many requests hang on one signal (the transport's
 * close signal, a caller's signal shared by many calls), that signal carries a
 * single listener. Adding one listener per request is what made 11+ concurrent
 * calls print `MaxListenersExceededWarning`; raising the limit would only hide a
 * real leak elsewhere.
 */
const fanouts = new WeakMap<AbortSignalLike, Set<() => void>>();

/** Runs `listener` once when `signal` aborts (at once if it has); returns the function that unlinks it. */
export function onAbort(signal: AbortSignalLike, listener: () => void): () => void {
  if (signal.aborted) {
    listener();
    return () => undefined;
  }
  if (signal instanceof LazyAbort) {
    // A request's own flag holds listeners in an array: no fan-out, no EventTarget.
    const run = (): void => listener();
    signal.addEventListener('abort', run);
    return () => signal.removeEventListener('abort', run);
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
export function linkedSignal(...parents: (AbortSignalLike | undefined)[]): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const unlinks: (() => void)[] = [];
  for (const parent of parents) {
    if (parent === undefined) continue;
    unlinks.push(onAbort(parent, () => controller.abort(parent.reason)));
  }
  return { signal: controller.signal, release: () => unlinks.forEach((unlink) => unlink()) };
}

/** `signal` as an AbortSignal, for what needs a real one (fetch). */
export function toAbortSignal(signal: AbortSignalLike): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  if (signal instanceof LazyAbort) return signal.signal;
  return linkedSignal(signal).signal;
}

const REQUEST_ABORT = Symbol('mcpkit.requestAbort');

/**
 * Code of this package that makes a request on behalf of another (the gateway) passes that
 * request's abort flag here instead of `options.signal`: reading its `signal` would make an
 * AbortController per call. Returns `options`.
 */
export function withRequestAbort<T extends { signal?: AbortSignal }>(options: T, abort: AbortSignalLike): T {
  if (abort instanceof AbortSignal) options.signal = abort;
  else (options as { [REQUEST_ABORT]?: AbortSignalLike })[REQUEST_ABORT] = abort;
  return options;
}

/** What aborts a request made with `options`: its `signal`, or the flag `withRequestAbort` gave it. */
export function requestAbort(options: { signal?: AbortSignal }): AbortSignalLike | undefined {
  return options.signal ?? (options as { [REQUEST_ABORT]?: AbortSignalLike })[REQUEST_ABORT];
}

/**
 * A request's OutboundInfo, aborted with `stream`: `abort` is the flag, `signal` its AbortSignal, made when
 * read. A transport in front of another may set a signal of its own (`info.signal = …`): it becomes the
 * abort too, instead of a TypeError on a getter.
 */
export function streamInfo(stream: LazyAbort): OutboundInfo {
  return {
    abort: stream,
    get signal(): AbortSignal | undefined {
      return stream.signal;
    },
    set signal(signal: AbortSignal | undefined) {
      Object.defineProperty(this, 'signal', { value: signal, writable: true, enumerable: true, configurable: true });
      this.abort = signal;
    },
  };
}

/**
 * What aborts an outbound message: `info.abort`, the client's flag, unless its AbortSignal was made. Then
 * someone read `info.signal` (a transport in front of this one spreading `{ ...info, signal }`) and may
 * have handed on a signal of its own, which `abort` knows nothing of.
 */
export function outboundAbort(info: OutboundInfo): AbortSignalLike | undefined {
  const abort = info.abort;
  if (abort instanceof LazyAbort && abort.hasSignal) return info.signal ?? abort;
  return abort ?? info.signal;
}
