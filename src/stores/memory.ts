/** In-process implementations of the store contracts (the defaults). */
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import type { EventStore, EventStoreLimits, ReplayWriter, SessionStore, StreamFollow } from './contracts.js';
import { followStream, replayStream, type StreamRead } from './follow.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import { unrefTimer } from '../util/timers.js';

export interface MemorySessionStoreOptions {
  /** Idle time after which an unused session expires (default 30 minutes; 0 disables). */
  idleTimeoutMs?: number;
}

interface SessionEntry<T> {
  value: T;
  /** Milliseconds since the store was made: an integer V8 keeps inline for 12 days (Date.now() is a heap number per entry). */
  lastUsed: number;
}

const MEMORY_SESSION_STORE_KEYS = keysOf<MemorySessionStoreOptions>({ idleTimeoutMs: true });

/**
 * Sessions in a Map kept in least-recently-used order, with one unref'd timer
 * armed for the oldest entry: touching is O(1) and no timer exists per session.
 */
export class MemorySessionStore<T> implements SessionStore<T> {
  readonly idleTimeoutMs: number;
  /** How late an expiry may come (see touch): 1/16 of the idle timeout, at most 1 s. */
  private readonly slackMs: number;
  private readonly entries = new Map<string, SessionEntry<T>>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private listener: ((id: string, value: T) => boolean) | undefined;
  private readonly epoch = Date.now();

  constructor(options: MemorySessionStoreOptions = {}) {
    refuseUnknownKeys(options, MEMORY_SESSION_STORE_KEYS, 'new MemorySessionStore() options');
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
    this.slackMs = Math.min(1_000, this.idleTimeoutMs / 16);
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  set(id: string, value: T): void {
    this.entries.delete(id);
    this.entries.set(id, { value, lastUsed: this.now() });
    this.arm();
  }

  delete(id: string): boolean {
    return this.entries.delete(id);
  }

  touch(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    const now = this.now();
    const moved = now - entry.lastUsed >= this.slackMs;
    entry.lastUsed = now;
    // Re-insert so Map order stays least-recently-used first. A delete and an insert on every
    // request cost more than the rest of a touch; an entry used again within slackMs keeps its
    // place, so a sweep may see it early and stop: expiry comes at most slackMs late, never early.
    if (!moved) return;
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

  private now(): number {
    // floor: a difference of two doubles stays a heap number even when it is whole.
    return Math.floor(Date.now() - this.epoch);
  }

  private arm(): void {
    if (this.timer !== undefined || this.idleTimeoutMs <= 0) return;
    const oldest = this.entries.values().next();
    if (oldest.done === true) return;
    const delay = Math.max(0, oldest.value.lastUsed + this.idleTimeoutMs - this.now());
    this.timer = setTimeout(() => this.sweep(), delay);
    unrefTimer(this.timer);
  }

  private sweep(): void {
    this.timer = undefined;
    const deadline = this.now() - this.idleTimeoutMs;
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

export type MemoryEventStoreOptions = EventStoreLimits;

/** What an event costs besides its JSON (ids, array slots), so empty events are not free. */
const EVENT_OVERHEAD = 64;
/** What a stream costs besides its events. */
const STREAM_OVERHEAD = 256;

interface OwnerLog {
  readonly id: string;
  bytes: number;
  events: number;
  /** Least recently written first. */
  readonly streams: Map<string, StreamLog>;
  /** The client it was first appended with (undefined: none given, no client quota). */
  readonly client: ClientLog | undefined;
}

/** The streams of every owner of one client, so one client's sessions together stay under its quota. */
interface ClientLog {
  readonly id: string;
  bytes: number;
  /** Least recently written first, across its owners. */
  readonly streams: Map<string, StreamLog>;
}

interface StreamLog {
  readonly id: string;
  readonly owner: OwnerLog;
  /** Replay after a sequence below this would have a hole: an event at or before it was dropped. */
  floor: number;
  readonly seqs: number[];
  /** Serialized messages; undefined marks a position (priming event). */
  readonly data: (string | undefined)[];
  readonly sizes: number[];
  bytes: number;
  /** `finish` was called: nothing more is appended. */
  finished: boolean;
}

const MEMORY_EVENT_STORE_KEYS = keysOf<MemoryEventStoreOptions>({ maxBytesPerStream: true, maxBytesPerOwner: true, maxBytesPerClient: true, maxBytes: true, maxEventsPerStream: true, maxEvents: true });

/**
 * A bounded in-memory event log. Event ids are `<streamId>:<sequence>`, the
 * sequence counting across the whole store, so an id is never reused even when
 * a dropped stream is written again. Messages are kept serialized: the bytes
 * counted are the bytes held.
 */
export class MemoryEventStore implements EventStore {
  private readonly maxStreamBytes: number;
  private readonly maxOwnerBytes: number;
  private readonly maxClientBytes: number;
  private readonly maxTotalBytes: number;
  private readonly maxStreamEvents: number;
  private readonly maxTotalEvents: number;
  private readonly owners = new Map<string, OwnerLog>();
  private readonly clients = new Map<string, ClientLog>();
  private readonly streams = new Map<string, StreamLog>();
  /** Followers by stream id. */
  readonly #watchers = new Map<string, Set<() => void>>();
  private sequence = 0;
  private totalBytes = 0;
  private totalEvents = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    refuseUnknownKeys(options, MEMORY_EVENT_STORE_KEYS, 'new MemoryEventStore() options');
    const limits = eventStoreLimits(options, 'MemoryEventStore');
    this.maxStreamBytes = limits.maxBytesPerStream;
    this.maxOwnerBytes = limits.maxBytesPerOwner;
    this.maxClientBytes = limits.maxBytesPerClient;
    this.maxTotalBytes = limits.maxBytes;
    this.maxStreamEvents = limits.maxEventsPerStream;
    this.maxTotalEvents = limits.maxEvents;
  }

  /** Events held (for tests and metrics). */
  get size(): number {
    return this.totalEvents;
  }

  /** Bytes held, overheads included (for tests and metrics). */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Bytes `owner` holds (for tests and metrics). */
  bytesOf(owner: string): number {
    return this.owners.get(owner)?.bytes ?? 0;
  }

  /** Bytes `client`'s owners hold together (for tests and metrics). */
  bytesOfClient(client: string): number {
    return this.clients.get(client)?.bytes ?? 0;
  }

  append(owner: string, streamId: string, message?: JsonRpcMessage, client?: string): string {
    const data = message === undefined ? undefined : JSON.stringify(message);
    const size = EVENT_OVERHEAD + (data === undefined ? 0 : utf8Length(data));
    const seq = this.sequence++;
    const log = this.streamFor(owner, streamId, seq, client);
    const ownerLog = log.owner;
    ownerLog.streams.delete(streamId);
    ownerLog.streams.set(streamId, log);
    ownerLog.client?.streams.delete(streamId);
    ownerLog.client?.streams.set(streamId, log);
    log.seqs.push(seq);
    log.data.push(data);
    log.sizes.push(size);
    log.bytes += size;
    this.charge(ownerLog, size, 1);
    while (log.seqs.length > 0 && (log.bytes > this.maxStreamBytes || log.seqs.length > this.maxStreamEvents)) this.dropFirst(log);
    while (ownerLog.bytes > this.maxOwnerBytes || this.totalBytes > this.maxTotalBytes || this.totalEvents > this.maxTotalEvents) {
      if (!this.makeRoom(ownerLog.streams, log)) break;
    }
    const clientLog = ownerLog.client;
    // Over its client's quota: room is made among that client's sessions only.
    while (clientLog !== undefined && clientLog.bytes > this.maxClientBytes) {
      if (!this.makeRoom(clientLog.streams, log)) break;
    }
    this.#changed(streamId);
    return `${streamId}:${seq}`;
  }

  async replayAfter(owner: string, lastEventId: string, write: ReplayWriter): Promise<string | undefined> {
    return replayStream((streamId, after) => this.#read(owner, streamId, after), lastEventId, write);
  }

  finish(owner: string, streamId: string): void {
    const log = this.streams.get(streamId);
    if (log === undefined || log.owner.id !== owner) return;
    log.finished = true;
    this.#changed(streamId);
  }

  follow(owner: string, lastEventId: string, write: ReplayWriter, signal: AbortSignal): Promise<StreamFollow | undefined> {
    const watch = (streamId: string, changed: () => void): (() => void) => {
      let set = this.#watchers.get(streamId);
      if (set === undefined) this.#watchers.set(streamId, (set = new Set()));
      set.add(changed);
      return () => {
        set.delete(changed);
        if (set.size === 0) this.#watchers.delete(streamId);
      };
    };
    return followStream((streamId, after) => this.#read(owner, streamId, after), watch, lastEventId, write, signal);
  }

  /** The messages of `owner`'s stream after `after` (copied: the log may change while they are written). */
  #read(owner: string, streamId: string, after: number): StreamRead | undefined {
    const log = this.streams.get(streamId);
    if (log === undefined || log.owner.id !== owner) return undefined;
    const last = log.seqs.length === 0 ? log.floor : log.seqs[log.seqs.length - 1]!;
    if (after < log.floor || after > last) return undefined;
    const events: [string, JsonRpcMessage][] = [];
    for (let i = 0; i < log.seqs.length; i++) {
      const data = log.data[i];
      if (log.seqs[i]! > after && data !== undefined) events.push([`${log.id}:${log.seqs[i]!}`, JSON.parse(data) as JsonRpcMessage]);
    }
    return { events, finished: log.finished };
  }

  #changed(streamId: string): void {
    for (const changed of this.#watchers.get(streamId) ?? []) changed();
  }

  release(owner: string): void {
    const ownerLog = this.owners.get(owner);
    if (ownerLog === undefined) return;
    for (const log of ownerLog.streams.values()) {
      this.streams.delete(log.id);
      ownerLog.client?.streams.delete(log.id);
      this.#changed(log.id);
    }
    this.owners.delete(owner);
    if (ownerLog.client !== undefined) {
      ownerLog.client.bytes -= ownerLog.bytes;
      if (ownerLog.client.streams.size === 0) this.clients.delete(ownerLog.client.id);
    }
    this.totalBytes -= ownerLog.bytes;
    this.totalEvents -= ownerLog.events;
  }

  private streamFor(owner: string, streamId: string, seq: number, client: string | undefined): StreamLog {
    const existing = this.streams.get(streamId);
    if (existing !== undefined) {
      if (existing.owner.id !== owner) throw new Error(`event store: stream "${streamId}" belongs to another owner`);
      return existing;
    }
    let ownerLog = this.owners.get(owner);
    if (ownerLog === undefined) {
      ownerLog = { id: owner, bytes: 0, events: 0, streams: new Map(), client: this.clientLog(client) };
      this.owners.set(owner, ownerLog);
    }
    // A new (or dropped and written again) stream: nothing before this event can be replayed.
    const log: StreamLog = { id: streamId, owner: ownerLog, floor: seq, seqs: [], data: [], sizes: [], bytes: 0, finished: false };
    this.streams.set(streamId, log);
    this.charge(ownerLog, STREAM_OVERHEAD, 0);
    return log;
  }

  private clientLog(client: string | undefined): ClientLog | undefined {
    if (client === undefined) return undefined;
    let log = this.clients.get(client);
    if (log === undefined) this.clients.set(client, (log = { id: client, bytes: 0, streams: new Map() }));
    return log;
  }

  /**
   * Frees room within `streams` only (the writer's, or its client's): the least
   * recently written other stream, else the oldest event of `current`, else
   * `current` itself (written again, it starts a new log whose floor refuses
   * older ids). False when nothing is left to drop.
   */
  private makeRoom(streams: Map<string, StreamLog>, current: StreamLog): boolean {
    for (const log of streams.values()) {
      if (log === current) continue;
      this.dropStream(log);
      return true;
    }
    if (current.seqs.length > 0) {
      this.dropFirst(current);
      return true;
    }
    if (this.streams.get(current.id) !== current) return false;
    this.dropStream(current);
    return true;
  }

  private dropFirst(log: StreamLog): void {
    log.floor = log.seqs.shift()!;
    log.data.shift();
    const size = log.sizes.shift()!;
    log.bytes -= size;
    this.charge(log.owner, -size, -1);
  }

  private dropStream(log: StreamLog): void {
    const { owner } = log;
    this.streams.delete(log.id);
    owner.streams.delete(log.id);
    owner.client?.streams.delete(log.id);
    this.#changed(log.id);
    this.charge(owner, -log.bytes - STREAM_OVERHEAD, -log.seqs.length);
    if (owner.streams.size === 0) this.owners.delete(owner.id);
    if (owner.client !== undefined && owner.client.streams.size === 0) this.clients.delete(owner.client.id);
  }

  private charge(owner: OwnerLog, bytes: number, events: number): void {
    owner.bytes += bytes;
    owner.events += events;
    if (owner.client !== undefined) owner.client.bytes += bytes;
    this.totalBytes += bytes;
    this.totalEvents += events;
  }
}

/** The event store bounds with their defaults (docs/limits.md), checked. */
export function eventStoreLimits(options: EventStoreLimits, store: string): Required<EventStoreLimits> {
  const limit = (value: number | undefined, fallback: number, name: string): number => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value < 1) throw new RangeError(`${store}: ${name} must be a positive number, got ${value}`);
    return value;
  };
  return {
    maxBytesPerStream: limit(options.maxBytesPerStream, 1024 * 1024, 'maxBytesPerStream'),
    maxBytesPerOwner: limit(options.maxBytesPerOwner, 4 * 1024 * 1024, 'maxBytesPerOwner'),
    maxBytesPerClient: limit(options.maxBytesPerClient, 16 * 1024 * 1024, 'maxBytesPerClient'),
    maxBytes: limit(options.maxBytes, 64 * 1024 * 1024, 'maxBytes'),
    maxEventsPerStream: limit(options.maxEventsPerStream, 1_000, 'maxEventsPerStream'),
    maxEvents: limit(options.maxEvents, 50_000, 'maxEvents'),
  };
}

/** UTF-8 length without allocating (no Buffer: the store also runs on Workers, Deno, Bun). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // a surrogate pair: 2 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
