/** In-process implementations of the store contracts (the defaults). */
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import type { EventStore, ReplayWriter, SessionStore } from './contracts.js';

export interface MemorySessionStoreOptions {
  /** Idle time after which an unused session expires (default 30 minutes; 0 disables). */
  idleTimeoutMs?: number;
}

interface SessionEntry<T> {
  value: T;
  lastUsed: number;
}

/**
 * Sessions in a Map kept in least-recently-used order, with one unref'd timer
 * armed for the oldest entry: touching is O(1) and no timer exists per session.
 */
export class MemorySessionStore<T> implements SessionStore<T> {
  readonly idleTimeoutMs: number;
  private readonly entries = new Map<string, SessionEntry<T>>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private listener: ((id: string, value: T) => boolean) | undefined;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  set(id: string, value: T): void {
    this.entries.delete(id);
    this.entries.set(id, { value, lastUsed: Date.now() });
    this.arm();
  }

  delete(id: string): boolean {
    return this.entries.delete(id);
  }

  touch(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    entry.lastUsed = Date.now();
    // Re-insert so Map order stays least-recently-used first.
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  size(): number {
    return this.entries.size;
  }

  values(): T[] {
    return Array.from(this.entries.values(), (entry) => entry.value);
  }

  onExpire(listener: (id: string, value: T) => boolean): void {
    this.listener = listener;
  }

  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.timer !== undefined || this.idleTimeoutMs <= 0) return;
    const oldest = this.entries.values().next();
    if (oldest.done === true) return;
    const delay = Math.max(0, oldest.value.lastUsed + this.idleTimeoutMs - Date.now());
    this.timer = setTimeout(() => this.sweep(), delay);
    this.timer.unref();
  }

  private sweep(): void {
    this.timer = undefined;
    const deadline = Date.now() - this.idleTimeoutMs;
    // Listeners that keep an entry move it to the back, so each entry is visited once.
    for (let n = this.entries.size; n > 0; n--) {
      const first = this.entries.entries().next();
      if (first.done === true) break;
      const [id, entry] = first.value;
      if (entry.lastUsed > deadline) break;
      let expire = true;
      try {
        expire = this.listener?.(id, entry.value) ?? true;
      } catch {
        expire = true;
      }
      if (expire) this.entries.delete(id);
      else this.touch(id);
    }
    this.arm();
  }
}

export interface MemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped (default 1,000). */
  maxEventsPerStream?: number;
  /** Events kept in total; whole least-recently-written streams are dropped (default 50,000). */
  maxEvents?: number;
}

interface StreamLog {
  /** Sequence number of `events[0]`. */
  first: number;
  events: (JsonRpcMessage | undefined)[];
}

/**
 * A bounded in-memory event log. Event ids are `<streamId>:<sequence>`; the
 * stream id is everything before the last colon.
 */
export class MemoryEventStore implements EventStore {
  private readonly maxPerStream: number;
  private readonly maxTotal: number;
  private readonly streams = new Map<string, StreamLog>();
  private total = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxPerStream = Math.max(1, options.maxEventsPerStream ?? 1_000);
    this.maxTotal = Math.max(1, options.maxEvents ?? 50_000);
  }

  /** Number of events held (for tests and metrics). */
  get size(): number {
    return this.total;
  }

  append(streamId: string, message?: JsonRpcMessage): string {
    let log = this.streams.get(streamId);
    if (log === undefined) {
      log = { first: 0, events: [] };
    } else {
      this.streams.delete(streamId);
    }
    this.streams.set(streamId, log); // most recently written last
    const sequence = log.first + log.events.length;
    log.events.push(message);
    this.total++;
    if (log.events.length > this.maxPerStream) {
      log.events.shift();
      log.first++;
      this.total--;
    }
    while (this.total > this.maxTotal) this.evictOldest(log);
    return `${streamId}:${sequence}`;
  }

  async replayAfter(lastEventId: string, write: ReplayWriter): Promise<string | undefined> {
    const colon = lastEventId.lastIndexOf(':');
    if (colon <= 0) return undefined;
    const streamId = lastEventId.slice(0, colon);
    const digits = lastEventId.slice(colon + 1);
    const log = this.streams.get(streamId);
    if (log === undefined || !/^\d{1,15}$/.test(digits)) return undefined;
    const sequence = Number(digits);
    const end = log.first + log.events.length;
    // Everything after `sequence` must still be here, else the replay would have a hole.
    if (sequence >= end || sequence + 1 < log.first) return undefined;
    for (let s = sequence + 1; s < end; s++) {
      const message = log.events[s - log.first];
      if (message !== undefined) await write(`${streamId}:${s}`, message);
    }
    return streamId;
  }

  private evictOldest(keep: StreamLog): void {
    const oldest = this.streams.entries().next();
    if (oldest.done === true) return;
    const [id, log] = oldest.value;
    if (log === keep) {
      // Only the stream being written is left: trim it from the front.
      log.events.shift();
      log.first++;
      this.total--;
      return;
    }
    this.streams.delete(id);
    this.total -= log.events.length;
  }
}
