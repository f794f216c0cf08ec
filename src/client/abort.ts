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
export function linkedSignal(...parents: (AbortSignalLike | undefined)[]): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const unlinks: (() => void)[] = [];
  for (const parent of parents) {
    if (parent === undefined) continue;
    unlinks.push(onAbort(parent, () => controller.abort(parent.reason)));
  }
  return { signal: controller.signal, release: () => unlinks.forEach((unlink) => unlink()) };
}

/**
 * `signal` as an AbortSignal, for what needs a real one (fetch, an auth hook). A foreign AbortSignalLike
 * gets a linked signal whose link `release()` drops: without it a long-lived foreign signal (a transport
 * wrapper's close signal) would hold one listener per exchange until it aborted.
 */
export function toAbortSignal(signal: AbortSignalLike): { signal: AbortSignal; release: () => void } {
  if (signal instanceof AbortSignal) return { signal, release: noop };
  if (signal instanceof LazyAbort) return { signal: signal.signal, release: noop };
  return linkedSignal(signal);
}

const noop = (): void => undefined;

/**
 * A request's OutboundInfo, aborted with `stream`: `abort` is the flag, `signal` its AbortSignal, made when
 * read. A transport in front of another may set a signal of its own (`info.signal = …`): it becomes the
 * abort too, instead of a TypeError on a getter.
 *
 * A class, not an object literal with `get signal()`: a literal's accessor pair is made per object, in
 * the old generation, and from there it kept each call's exchange alive through every young collection
 * until the next full one (2 KB promoted per HTTP call, docs/performance.md). The accessor is on the
 * prototype, so spreading the info (`{ ...info }`) copies `abort`, not `signal`: see `outboundAbort`.
 */
class StreamInfo implements OutboundInfo {
  abort: AbortSignalLike | undefined;
  // Declared, not defined: a class field is an own key even unset (`undefined`), and `{ ...defaults, ...info }`
  // in a transport in front would erase the defaults with it. The client sets them only when it has them.
  declare protocolVersion?: string | undefined;
  declare headers?: Record<string, string> | undefined;
  readonly #stream: LazyAbort;
  #replaced = false;
  #signal: AbortSignal | undefined;

  constructor(stream: LazyAbort) {
    this.#stream = stream;
    this.abort = stream;
  }

  get signal(): AbortSignal | undefined {
    return this.#replaced ? this.#signal : this.#stream.signal;
  }

  set signal(signal: AbortSignal | undefined) {
    this.#replaced = true;
    this.#signal = signal;
    this.abort = signal;
  }
}

export function streamInfo(stream: LazyAbort): OutboundInfo {
  return new StreamInfo(stream);
}

/**
 * What aborts an outbound message. On the client's own info, `abort` (a signal set on it replaces both).
 * On any other object (one a transport in front of this one built, `{ ...info, signal }`, or a caller's
 * `{ signal }`), its own `signal` when it has one: made from the client's or the wrapper's own, it is
 * the one to honour; else `abort`.
 */
export function outboundAbort(info: OutboundInfo): AbortSignalLike | undefined {
  if (info instanceof StreamInfo) return info.abort;
  return info.signal ?? info.abort;
}
