/**
 * What is in flight (a server's calls, a client's exchanges, a gateway link's calls), added and
 * removed once per request, in the order added: a doubly linked list through the items themselves.
 * Not a Set: a Set's hash table is rebuilt as entries come and go, and the table it replaces keeps a
 * link to the new one. Once one replaced table is in the old generation, every table after it, and
 * everything in them, survives young collections until the next full one: at 32 requests in flight
 * a gateway promoted kilobytes per call that way, a server 3.5 KiB per request (docs/performance.md).
 * Here an item that leaves is unlinked and points nowhere, so nothing dead keeps anything young alive.
 */

/** The links a list writes on its items (only the list writes them); declared by the item, so every item has one shape. */
export interface Linked<T> {
  liveLinked: boolean;
  livePrev: T | undefined;
  liveNext: T | undefined;
}

/** A value that cannot carry the links itself (a request's context): a node that does. */
export class LiveEntry<V> implements Linked<LiveEntry<V>> {
  liveLinked = false;
  livePrev: LiveEntry<V> | undefined = undefined;
  liveNext: LiveEntry<V> | undefined = undefined;
  constructor(readonly value: V) {}
}

export class LiveList<T extends Linked<T>> implements Iterable<T> {
  #head: T | undefined = undefined;
  #tail: T | undefined = undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Appends `item` (already here: nothing); returns it. */
  add(item: T): T {
    if (item.liveLinked) return item;
    item.liveLinked = true;
    const tail = this.#tail;
    item.livePrev = tail;
    item.liveNext = undefined;
    if (tail === undefined) this.#head = item;
    else tail.liveNext = item;
    this.#tail = item;
    this.#size++;
    return item;
  }

  /** Unlinks `item`; once more (or after `clear`) does nothing. */
  delete(item: T): void {
    if (!item.liveLinked) return;
    item.liveLinked = false;
    const { livePrev: prev, liveNext: next } = item;
    if (prev === undefined) this.#head = next;
    else prev.liveNext = next;
    if (next === undefined) this.#tail = prev;
    else next.livePrev = prev;
    item.livePrev = item.liveNext = undefined;
    this.#size--;
  }

  /** The latest added still here. */
  last(): T | undefined {
    return this.#tail;
  }

  /** Unlinks everything; what it held, in order (a caller may act on each, and delete, meanwhile). */
  clear(): T[] {
    const items = [...this];
    for (const item of items) {
      item.liveLinked = false;
      item.livePrev = item.liveNext = undefined;
    }
    this.#head = this.#tail = undefined;
    this.#size = 0;
    return items;
  }

  /**
   * In order, what is here when iteration starts; what is deleted meanwhile (but the current item) is
   * skipped. Over a copy: a deleted item points nowhere, so a walk that held the next one lost its way
   * when that one was deleted (it stopped there, and skipped everything after it).
   */
  *[Symbol.iterator](): Iterator<T> {
    const items: T[] = [];
    for (let item = this.#head; item !== undefined; item = item.liveNext) items.push(item);
    for (const item of items) if (item.liveLinked) yield item;
  }
}
