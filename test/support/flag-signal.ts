/**
 * The least an AbortSignalLike is: no EventTarget and no AbortController behind it, listeners in a
 * set a test can count (a transport wrapper's close flag, a server request's abort flag).
 */
import type { AbortSignalLike } from '../../src/protocol/connection.js';

export class FlagSignal implements AbortSignalLike {
  aborted = false;
  reason: unknown = undefined;
  readonly listeners = new Set<() => void>();
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    for (const listener of [...this.listeners]) listener();
  }
}
