/** The pause between two status polls of a task, which a pushed status or an abort ends early. */
import { onAbort } from './abort.js';

export class PollPause {
  #wake: (() => void) | undefined;

  /** Ends the pause in progress, if any (a status notification arrived). */
  wake(): void {
    this.#wake?.();
  }

  /** Resolves after `ms`, on `signal`'s abort or on `wake()`, whichever is first. */
  for(ms: number | undefined, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        unlink();
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      const unlink = onAbort(signal, done);
      this.#wake = done;
    });
  }
}
