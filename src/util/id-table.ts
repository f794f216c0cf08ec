/**
 * Requests in flight by the ids a counter gave them (1, 2, 3, …): a slot each, at the id modulo the
 * table's size. Not a Map, for the reason LiveList is not a Set (live-list.ts): a Map churned at 32
 * requests in flight kept each request's objects alive into the old generation. A request still in
 * flight when a later id needs its slot (one that outlives `capacity` others) moves to a Map of
 * stragglers, so the slots stay `capacity` long however long a request lasts.
 */
export class IdTable<T> {
  readonly #ids: number[];
  readonly #values: (T | undefined)[];
  readonly #mask: number;
  #stragglers: Map<number, T> | undefined;
  #size = 0;

  /** `capacity`: a power of two. */
  constructor(capacity = 1024) {
    if (capacity <= 0 || (capacity & (capacity - 1)) !== 0) throw new RangeError(`IdTable capacity must be a power of two, got ${capacity}`);
    this.#mask = capacity - 1;
    this.#ids = new Array<number>(capacity).fill(0);
    this.#values = new Array<T | undefined>(capacity).fill(undefined);
  }

  get size(): number {
    return this.#size;
  }

  get(id: unknown): T | undefined {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return undefined;
    const at = id & this.#mask;
    if (this.#ids[at] === id) return this.#values[at];
    return this.#stragglers?.get(id);
  }

  /** `id`: a positive integer, larger than every id set before. */
  set(id: number, value: T): void {
    const at = id & this.#mask;
    const held = this.#values[at];
    if (held !== undefined) (this.#stragglers ??= new Map()).set(this.#ids[at]!, held);
    this.#ids[at] = id;
    this.#values[at] = value;
    this.#size++;
  }

  delete(id: unknown): boolean {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return false;
    const at = id & this.#mask;
    if (this.#ids[at] === id && this.#values[at] !== undefined) {
      this.#values[at] = undefined;
      this.#ids[at] = 0;
    } else if (this.#stragglers?.delete(id) !== true) return false;
    this.#size--;
    return true;
  }

  /** Every value, oldest id first. */
  values(): T[] {
    const out: [number, T][] = [...(this.#stragglers ?? [])];
    for (let at = 0; at <= this.#mask; at++) {
      const value = this.#values[at];
      if (value !== undefined) out.push([this.#ids[at]!, value]);
    }
    return out.sort((a, b) => a[0] - b[0]).map(([, value]) => value);
  }
}
