/** Polling for a condition that becomes true by ordering, not by timing. */

export interface EventuallyOptions {
  /** Give up after this long (default 10 s); a hung condition then fails with `message`, not the test timeout. */
  deadlineMs?: number;
  /** How often to poll (default 5 ms). */
  everyMs?: number;
  /** Says what was awaited, for the failure. */
  message?: string;
}

/** Polls `condition` until it holds; past the deadline it throws with the message. */
export async function eventually(condition: () => boolean | Promise<boolean>, options: EventuallyOptions = {}): Promise<void> {
  const { deadlineMs = 10_000, everyMs = 5, message = 'condition' } = options;
  const deadline = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`eventually: ${message} did not hold within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
