/**
 * The client's listeners: server notifications by method, `'*'`, `'warning'` and `'close'`.
 * A listener that throws fails itself only: the connection keeps going.
 */
import type { Json } from './options.js';

export type Listener = (params: Json) => void;

export class Listeners {
  readonly #listeners = new Map<string, Set<Listener>>();

  constructor(private readonly onWarning: ((message: string) => void) | undefined) {}

  on(event: string, listener: Listener): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit(event: string, params: Json): void {
    const set = this.#listeners.get(event);
    if (set !== undefined) for (const listener of [...set]) this.safely(() => listener(params));
  }

  /** Something the server did that the client put up with. */
  warn(message: string): void {
    this.safely(() => this.onWarning?.(message));
    this.emit('warning', { message });
  }

  /** Runs caller code; what it throws is rethrown outside the client's stack unless someone listens to warnings. */
  safely(run: () => void): void {
    try {
      run();
    } catch (error) {
      if (this.#listeners.get('warning')?.size) return;
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
