/**
 * What is in flight (a link's calls, a client's exchanges), added and removed once per request, in
 * the order added. Not a Set: a Set's hash table is rebuilt as entries come and go, and the table it
 * replaced keeps a link to the new one. Once one replaced table is in the old generation, every
 * table after it, and everything in them, survives young collections until the next full one: at
 * 32 requests in flight a gateway promoted kilobytes per call that way (docs/performance.md). Here
 * an entry that leaves is unlinked and points nowhere, so nothing dead keeps anything young alive.
 */
export class LiveEntry<T> {
  prev: LiveEntry<T> | undefined = undefined;
  next: LiveEntry<T> | undefined = undefined;
  linked = true;
  constructor(readonly value: T) {}
}

export class LiveList<T> implements Iterable<T> {
  #head: LiveEntry<T> | undefined = undefined;
  #tail: LiveEntry<T> | undefined = undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Appends `value`; the entry is what `delete` takes. */
  add(value: T): LiveEntry<T> {
    const entry = new LiveEntry(value);
    const tail = this.#tail;
    if (tail === undefined) this.#head = entry;
    else {
      tail.next = entry;
      entry.prev = tail;
    }
    this.#tail = entry;
    this.#size++;
    return entry;
  }

  /** Unlinks `entry`; once more (or after `clear`) does nothing. */
  delete(entry: LiveEntry<T>): void {
    if (!entry.linked) return;
    entry.linked = false;
    const { prev, next } = entry;
    if (prev === undefined) this.#head = next;
    else prev.next = next;
    if (next === undefined) this.#tail = prev;
    else next.prev = prev;
    entry.prev = entry.next = undefined;
    this.#size--;
  }

  /** The latest added still here. */
  last(): T | undefined {
    return this.#tail?.value;
  }

  /** Unlinks everything; what it held, in order (a caller may act on each, and delete, meanwhile). */
  clear(): T[] {
    const values = [...this];
    for (let entry = this.#head; entry !== undefined; ) {
      const next = entry.next;
      entry.linked = false;
      entry.prev = entry.next = undefined;
      entry = next;
    }
    this.#head = this.#tail = undefined;
    this.#size = 0;
    return values;
  }

  /**
   * In order, what is here when iteration starts; what is deleted meanwhile (but the current entry) is
   * skipped. Over a copy of the entries: a deleted entry points nowhere, so a walk that held the next one
   * lost its way when that one was deleted (it stopped there, and skipped everything after it).
   */
  *[Symbol.iterator](): Iterator<T> {
    const entries: LiveEntry<T>[] = [];
    for (let entry = this.#head; entry !== undefined; entry = entry.next) entries.push(entry);
    for (const entry of entries) if (entry.linked) yield entry.value;
  }
}
