/**
 * A SharedSessionStore in one process's memory: the reference implementation
 * of the contract (describeSessionStoreContract in mcpkit/testing), for tests
 * and for instances that share a process. Records are kept as JSON, so what
 * goes in must be serialisable, as on any shared backend.
 */
import type { SharedSession, SharedSessionStore, StoredSessionRecord } from './shared-sessions.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export interface MemorySharedSessionStoreOptions {
  /** Idle time before a session expires (ms, default 30 minutes); every `load` restarts it. */
  idleTimeoutMs?: number;
}

interface Entry {
  id: string;
  record: string;
  subscriptions: readonly string[];
  principal: string | undefined;
  owner: string | undefined;
  createdAt: number;
  holder: string | undefined;
  rev: number;
  expiresAt: number;
}

const MEMORY_SHARED_SESSION_STORE_KEYS = keysOf<MemorySharedSessionStoreOptions>({ idleTimeoutMs: true });

export class MemorySharedSessionStore implements SharedSessionStore {
  readonly idleTimeoutMs: number;
  /** By principal and id: another principal's lookup names another entry. */
  readonly #sessions = new Map<string, Entry>();
  /** The reverse index: URI → keys of the sessions subscribed to it. */
  readonly #subscribers = new Map<string, Set<string>>();
  #nextSweep = 0;

  constructor(options: MemorySharedSessionStoreOptions = {}) {
    refuseUnknownKeys(options, MEMORY_SHARED_SESSION_STORE_KEYS, 'new MemorySharedSessionStore() options');
    const idle = options.idleTimeoutMs ?? 30 * 60_000;
    if (!Number.isFinite(idle) || idle <= 0) throw new RangeError(`MemorySharedSessionStore: idleTimeoutMs must be a positive number (got ${idle})`);
    this.idleTimeoutMs = Math.ceil(idle);
  }

  create(id: string, principal: string | undefined, session: SharedSession): Promise<boolean> {
    this.#sweep();
    const key = keyOf(id, principal);
    if (this.#live(key) !== undefined) return Promise.resolve(false);
    const subscriptions = [...session.record.subscriptions];
    this.#sessions.set(key, { id, record: JSON.stringify(session.record), subscriptions, principal, owner: session.owner, createdAt: session.createdAt, holder: undefined, rev: 1, expiresAt: Date.now() + this.idleTimeoutMs });
    this.#index(key, [], subscriptions);
    return Promise.resolve(true);
  }

  load(id: string, principal: string | undefined): Promise<SharedSession | undefined> {
    const entry = this.#live(keyOf(id, principal));
    if (entry !== undefined) entry.expiresAt = Date.now() + this.idleTimeoutMs;
    return Promise.resolve(entry && view(entry));
  }

  update(id: string, principal: string | undefined, record: StoredSessionRecord): Promise<SharedSession | undefined> {
    const key = keyOf(id, principal);
    const entry = this.#live(key);
    if (entry === undefined) return Promise.resolve(undefined);
    const subscriptions = [...record.subscriptions];
    this.#index(key, entry.subscriptions, subscriptions);
    entry.record = JSON.stringify(record);
    entry.subscriptions = subscriptions;
    entry.rev++;
    return Promise.resolve(view(entry));
  }

  hold(id: string, principal: string | undefined, instanceId: string): Promise<SharedSession | undefined> {
    const entry = this.#live(keyOf(id, principal));
    if (entry !== undefined) entry.holder = instanceId;
    return Promise.resolve(entry && view(entry));
  }

  delete(id: string, principal: string | undefined): Promise<SharedSession | undefined> {
    const key = keyOf(id, principal);
    const entry = this.#live(key);
    if (entry === undefined) return Promise.resolve(undefined);
    this.#remove(key, entry);
    return Promise.resolve(view(entry));
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  subscribers(uri: string): Promise<string[]> {
    const ids: string[] = [];
    for (const key of this.#subscribers.get(uri) ?? []) {
      const entry = this.#live(key);
      if (entry !== undefined) ids.push(entry.id);
    }
    return Promise.resolve(ids);
  }

  count(owner: string): Promise<{ owner: number; total: number }> {
    this.#nextSweep = 0;
    this.#sweep();
    let owned = 0;
    for (const entry of this.#sessions.values()) if (entry.owner === owner) owned++;
    return Promise.resolve({ owner: owned, total: this.#sessions.size });
  }

  /** The entry unless it expired (an expired one is removed on the way, with its index entries). */
  #live(key: string): Entry | undefined {
    const entry = this.#sessions.get(key);
    if (entry === undefined || entry.expiresAt > Date.now()) return entry;
    this.#remove(key, entry);
    return undefined;
  }

  #remove(key: string, entry: Entry): void {
    this.#sessions.delete(key);
    this.#index(key, entry.subscriptions, []);
  }

  #index(key: string, before: readonly string[], after: readonly string[]): void {
    for (const uri of before) {
      if (after.includes(uri)) continue;
      const set = this.#subscribers.get(uri);
      set?.delete(key);
      if (set?.size === 0) this.#subscribers.delete(uri);
    }
    for (const uri of after) {
      let set = this.#subscribers.get(uri);
      if (set === undefined) this.#subscribers.set(uri, (set = new Set()));
      set.add(key);
    }
  }

  /** Sessions nobody asks for again are dropped at most once per idle period, so memory stays bounded by live ones. */
  #sweep(): void {
    const now = Date.now();
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + this.idleTimeoutMs;
    for (const key of [...this.#sessions.keys()]) this.#live(key);
  }
}

function keyOf(id: string, principal: string | undefined): string {
  // A principal may contain anything but its length is known: no two (principal, id) pairs share a key.
  return principal === undefined ? `_:${id}` : `${principal.length}:${principal}:${id}`;
}

function view(entry: Entry): SharedSession {
  const session: { -readonly [K in keyof SharedSession]: SharedSession[K] } = { record: JSON.parse(entry.record) as StoredSessionRecord, createdAt: entry.createdAt, rev: entry.rev };
  if (entry.principal !== undefined) session.principal = entry.principal;
  if (entry.holder !== undefined) session.holder = entry.holder;
  if (entry.owner !== undefined) session.owner = entry.owner;
  return session;
}
