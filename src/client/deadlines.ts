/**
 * The timeouts of a client's requests on one timer. A setTimeout and clearTimeout per request
 * (a Timeout object, a timer-list insert and removal each) was a measurable share of a stdio call.
 * Requests of one timeout length expire in the order they were armed, so each length keeps a FIFO
 * of (request, deadline); the one timer fires at the earliest deadline. A request settled or
 * re-armed leaves a stale slot behind, skipped when reached and compacted when stale ones dominate.
 */
import { unrefTimer } from '../util/timers.js';

export interface Expiring {
  /** The deadline this request is armed for now; undefined once settled. */
  deadline: number | undefined;
  expire(): void;
}

class Lane {
  /** Slots [head, tail) are in use; storage past tail is kept, so calls one after another allocate nothing here. */
  entries: (Expiring | undefined)[] = [];
  deadlines: number[] = [];
  head = 0;
  tail = 0;

  push(entry: Expiring, deadline: number): void {
    this.entries[this.tail] = entry;
    this.deadlines[this.tail++] = deadline;
  }

  /** Drops the stale slots at the front; the live head's deadline, or undefined. */
  front(): number | undefined {
    const { entries, deadlines } = this;
    while (this.head < this.tail && entries[this.head]!.deadline !== deadlines[this.head]) entries[this.head++] = undefined;
    if (this.head === this.tail) {
      this.head = this.tail = 0;
      return undefined;
    }
    if (this.head > 1024 && this.head * 2 > this.tail) this.#compact();
    return deadlines[this.head];
  }

  /** Nothing is armed: the slots let go of their requests (a large storage goes too). */
  reset(): void {
    if (this.entries.length > 1024) {
      this.entries = [];
      this.deadlines = [];
    } else for (let i = this.head; i < this.tail; i++) this.entries[i] = undefined;
    this.head = this.tail = 0;
  }

  #compact(): void {
    const entries: Expiring[] = [];
    const deadlines: number[] = [];
    for (let i = this.head; i < this.tail; i++) {
      if (this.entries[i]!.deadline !== this.deadlines[i]) continue;
      entries.push(this.entries[i]!);
      deadlines.push(this.deadlines[i]!);
    }
    this.entries = entries;
    this.deadlines = deadlines;
    this.head = 0;
    this.tail = entries.length;
  }
}

export class Deadlines {
  readonly #lanes = new Map<number, Lane>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #at = Infinity;
  #live = 0;

  arm(entry: Expiring, timeoutMs: number): void {
    const deadline = Date.now() + timeoutMs;
    if (entry.deadline === undefined && this.#live++ === 0) keepAlive(this.#timer, true);
    entry.deadline = deadline;
    let lane = this.#lanes.get(timeoutMs);
    if (lane === undefined) this.#lanes.set(timeoutMs, (lane = new Lane()));
    lane.push(entry, deadline);
    // A stale slot a lane never reaches again (no more arms, no firing) is bounded by this compaction.
    if (lane.tail > 2048 && lane.tail > this.#live * 4) lane.front();
    if (deadline < this.#at) this.#schedule(deadline);
  }

  disarm(entry: Expiring): void {
    if (entry.deadline === undefined) return;
    entry.deadline = undefined;
    if (--this.#live > 0) return;
    // Nothing left to time out: the timer no longer keeps the process alive (it stays armed, so one
    // call after another does not make a timer each), no slot keeps a request. The lanes stay (a new
    // Lane per call was a tenth of a stdio call's allocation), unless many timeout lengths were used.
    keepAlive(this.#timer, false);
    if (this.#lanes.size > 8) this.#lanes.clear();
    else for (const lane of this.#lanes.values()) lane.reset();
  }

  #schedule(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#at = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - Date.now()));
  }

  #fire(): void {
    this.#timer = undefined;
    this.#at = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const lane of this.#lanes.values()) {
      for (let at = lane.front(); at !== undefined; at = lane.front()) {
        if (at > now) {
          next = Math.min(next, at);
          break;
        }
        const entry = lane.entries[lane.head]!;
        this.disarm(entry);
        entry.expire();
      }
    }
    if (next < this.#at && this.#live > 0) this.#schedule(next);
  }
}

/** ref()/unref() where timers have them (Node, Deno, Bun); a browser's timer keeps nothing alive. */
function keepAlive(timer: ReturnType<typeof setTimeout> | undefined, keep: boolean): void {
  if (keep) (timer as { ref?: () => void } | undefined)?.ref?.();
  else unrefTimer(timer);
}
