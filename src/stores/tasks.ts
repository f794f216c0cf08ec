/**
 * Task state for the 2026-07-28 tasks extension (SEP-2663): one record per
 * task, readable by `tasks/get` from any request. The memory store is the
 * default; another backend implements the same interface. Every method may
 * answer synchronously or with a promise; callers always await.
 */
import { randomUUID } from '../util/crypto.js';
import { utf8Length } from '../util/bytes.js';
import type { MaybePromise } from './contracts.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

import type { TaskStatus } from '../wire-types/index.js';

export type { TaskStatus };

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export interface TaskInputRequest {
  method: string;
  params: Record<string, unknown>;
}

export interface TaskRecord {
  readonly taskId: string;
  /** Who is charged for the task (a principal, a remote address, or `anonymous`). */
  readonly owner?: string;
  /** The principal that created it (`principalOf(authInfo)`); only it may read or change the task. */
  readonly principal?: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** How long the task stays readable after its last change (ms). */
  ttlMs: number;
  pollIntervalMs?: number;
  /** `completed`: what the request would have returned synchronously. */
  result?: Record<string, unknown>;
  /** `failed`: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
  /** `input_required`: what the handler waits for, by key. */
  inputRequests?: Record<string, TaskInputRequest>;
}

type Mutable = Omit<TaskRecord, 'taskId' | 'owner' | 'principal' | 'createdAt' | 'lastUpdatedAt' | 'ttlMs'>;
/** Fields to change; a field set to `undefined` is removed. */
export type TaskPatch = { [K in keyof Mutable]?: Mutable[K] | undefined };

/** Who a new task belongs to. */
export interface TaskOwnership {
  /** The quota owner (`quotaOwnerOf(authInfo, remoteAddress)`). */
  owner: string;
  /** The principal the task is bound to (`principalOf(authInfo)`), if authenticated. */
  principal?: string | undefined;
}

/** Which limit a refused `create` or `update` hit (the option of the same name). */
export type TaskLimit = 'maxTasks' | 'maxTasksPerOwner' | 'maxBytes' | 'maxBytesPerOwner' | 'maxTaskBytes';

/** A store refused to hold more: the caller gets a clear error, nothing else is evicted. */
export class TaskLimitError extends Error {
  override readonly name = 'TaskLimitError';
  constructor(
    readonly limit: TaskLimit,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Contract:
 * - `create` stores a new `working` task for `ownership` and answers it; once it
 *   answered, `get` of that id resolves (the task is durably created). It throws
 *   a TaskLimitError when the owner (or the whole store) is at its limit.
 * - `get` of an unknown or expired id answers `undefined`.
 * - `update` applies a patch and answers the new record; a terminal task
 *   (`completed`, `failed`, `cancelled`) never changes again, and `update`
 *   answers it unchanged. Unknown ids answer `undefined`. A patch that would put
 *   the task or its owner over a byte limit throws a TaskLimitError and changes nothing.
 * - Storage is bounded in count and bytes, per owner and in total. Nothing is ever
 *   evicted to make room: a task stays readable at least `ttlMs` after its last change.
 */
export interface TaskStore {
  create(ownership?: TaskOwnership): MaybePromise<TaskRecord>;
  get(taskId: string): MaybePromise<TaskRecord | undefined>;
  update(taskId: string, patch: TaskPatch): MaybePromise<TaskRecord | undefined>;
}

export interface MemoryTaskStoreOptions {
  /** How long a task stays readable after its last change, in ms (positive integer; default 60 s). */
  ttlMs?: number;
  /** The polling interval suggested to clients, in ms (positive integer; default 250). */
  pollIntervalMs?: number;
  /** Most tasks kept at once, all owners together (default 10 000). */
  maxTasks?: number;
  /** Most tasks one owner may have at once, running or finished but unexpired (default 256). */
  maxTasksPerOwner?: number;
  /** Most bytes kept, all owners together (default 64 MiB). */
  maxBytes?: number;
  /** Most bytes one owner's tasks may hold (default 8 MiB). */
  maxBytesPerOwner?: number;
  /** Largest single task: its result, error or pending questions, as JSON (default 1 MiB). */
  maxTaskBytes?: number;
}

/** The task store options with their defaults (docs/limits.md), checked; `store` names the class in errors. */
export function taskStoreLimits(options: MemoryTaskStoreOptions, store: string): Required<MemoryTaskStoreOptions> {
  const positiveInteger = (value: number, name: string): number => {
    if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${store}: ${name} must be a positive integer (got ${value})`);
    return value;
  };
  return {
    ttlMs: positiveInteger(options.ttlMs ?? 60_000, 'ttlMs'),
    pollIntervalMs: positiveInteger(options.pollIntervalMs ?? 250, 'pollIntervalMs'),
    maxTasks: positiveInteger(options.maxTasks ?? 10_000, 'maxTasks'),
    maxTasksPerOwner: positiveInteger(options.maxTasksPerOwner ?? 256, 'maxTasksPerOwner'),
    maxBytes: positiveInteger(options.maxBytes ?? 64 * MiB, 'maxBytes'),
    maxBytesPerOwner: positiveInteger(options.maxBytesPerOwner ?? 8 * MiB, 'maxBytesPerOwner'),
    maxTaskBytes: positiveInteger(options.maxTaskBytes ?? MiB, 'maxTaskBytes'),
  };
}

/** What every task store says at its limits (one wording for every backend). */
export const taskLimitErrors = {
  ownerCount: (count: number, max: number) =>
    new TaskLimitError('maxTasksPerOwner', `Too many tasks: this client already has ${count} tasks (the limit is ${max}); wait for them to finish and expire, or cancel some`),
  ownerBytes: (bytes: number, max: number) =>
    new TaskLimitError('maxBytesPerOwner', `Too many tasks: this client's tasks hold ${bytes} bytes (the limit is ${max}); wait for them to expire, or cancel some`),
  full: (limit: 'maxTasks' | 'maxBytes') => new TaskLimitError(limit, 'The task store is full; retry after some tasks expire'),
  tooLarge: (payload: number, max: number) =>
    new TaskLimitError('maxTaskBytes', payload === Number.POSITIVE_INFINITY ? 'The task could not be stored: its content cannot be serialised as JSON' : `The task is too large to keep: ${payload} bytes (the limit is ${max})`),
  ownerBytesOnUpdate: (max: number) => new TaskLimitError('maxBytesPerOwner', `The task could not be stored: this client's tasks would hold more than ${max} bytes`),
  fullOnUpdate: () => new TaskLimitError('maxBytes', 'The task could not be stored: the task store is full'),
};


function jsonBytes(value: unknown): number {
  if (value === undefined) return 0;
  try {
    return utf8Length(JSON.stringify(value) ?? '');
  } catch {
    // Cyclic, BigInt or too deep: it cannot be kept (nor sent).
    return Number.POSITIVE_INFINITY;
  }
}

/** The payload bytes one field of a record is charged (0 for the fields that cannot grow). */
export function taskFieldBytes(key: string, value: unknown): number {
  if (key === 'statusMessage') return typeof value === 'string' ? utf8Length(value) : 0;
  return key === 'result' || key === 'error' || key === 'inputRequests' ? jsonBytes(value) : 0;
}

/** What a client or handler can make large in a record: result, error, pending questions, status message (JSON bytes). */
export function taskPayloadBytes(record: TaskRecord): number {
  return taskFieldBytes('statusMessage', record.statusMessage) + taskFieldBytes('result', record.result) + taskFieldBytes('error', record.error) + taskFieldBytes('inputRequests', record.inputRequests);
}

/** What every record costs besides its payload (ids, timestamps, map entry). */
export const TASK_RECORD_OVERHEAD = 512;
/**
 * Payload every task is charged for up front, so that ending it (a short error,
 * a small result) never needs more quota: a task can always be finished.
 */
export const TASK_PREPAID_PAYLOAD = 1024;

/** The bytes a record is charged: its payload plus a fixed overhead. */
export function taskRecordBytes(record: TaskRecord): number {
  return TASK_RECORD_OVERHEAD + TASK_PREPAID_PAYLOAD + (record.owner?.length ?? 0) + (record.principal?.length ?? 0) + Math.max(0, taskPayloadBytes(record) - TASK_PREPAID_PAYLOAD);
}

const MiB = 1024 * 1024;

interface Entry {
  record: TaskRecord;
  touched: number;
  bytes: number;
}

const MEMORY_TASK_STORE_KEYS = keysOf<MemoryTaskStoreOptions>({ ttlMs: true, pollIntervalMs: true, maxTasks: true, maxTasksPerOwner: true, maxBytes: true, maxBytesPerOwner: true, maxTaskBytes: true });

/**
 * Tasks in a Map, with count and byte totals per owner; expired ones are dropped
 * when read and in a sweep before each create. Nothing unexpired is ever evicted.
 */
export class MemoryTaskStore implements TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly maxTasks: number;
  readonly maxTasksPerOwner: number;
  readonly maxBytes: number;
  readonly maxBytesPerOwner: number;
  readonly maxTaskBytes: number;
  readonly #tasks = new Map<string, Entry>();
  readonly #owners = new Map<string, { count: number; bytes: number }>();
  #bytes = 0;

  constructor(options: MemoryTaskStoreOptions = {}) {
    refuseUnknownKeys(options, MEMORY_TASK_STORE_KEYS, 'new MemoryTaskStore() options');
    const limits = taskStoreLimits(options, 'MemoryTaskStore');
    this.ttlMs = limits.ttlMs;
    this.pollIntervalMs = limits.pollIntervalMs;
    this.maxTasks = limits.maxTasks;
    this.maxTasksPerOwner = limits.maxTasksPerOwner;
    this.maxBytes = limits.maxBytes;
    this.maxBytesPerOwner = limits.maxBytesPerOwner;
    this.maxTaskBytes = limits.maxTaskBytes;
  }

  get size(): number {
    return this.#tasks.size;
  }

  /** Bytes held, all owners together. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Tasks and bytes held by one owner. */
  usage(owner: string): { count: number; bytes: number } {
    const usage = this.#owners.get(owner);
    return { count: usage?.count ?? 0, bytes: usage?.bytes ?? 0 };
  }

  create(ownership: TaskOwnership = { owner: 'anonymous' }): TaskRecord {
    this.#sweep();
    const { owner, principal } = ownership;
    const usage = this.usage(owner);
    if (usage.count >= this.maxTasksPerOwner) {
      throw taskLimitErrors.ownerCount(usage.count, this.maxTasksPerOwner);
    }
    const now = new Date().toISOString();
    const record: TaskRecord = {
      taskId: randomUUID(),
      owner,
      ...(principal !== undefined && { principal }),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
    const bytes = taskRecordBytes(record);
    if (usage.bytes + bytes > this.maxBytesPerOwner) {
      throw taskLimitErrors.ownerBytes(usage.bytes, this.maxBytesPerOwner);
    }
    if (this.#tasks.size >= this.maxTasks || this.#bytes + bytes > this.maxBytes) {
      throw taskLimitErrors.full(this.#tasks.size >= this.maxTasks ? 'maxTasks' : 'maxBytes');
    }
    this.#tasks.set(record.taskId, { record, touched: Date.now(), bytes });
    this.#charge(owner, 1, bytes);
    return { ...record };
  }

  get(taskId: string): TaskRecord | undefined {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return undefined;
    if (this.#expired(entry, Date.now())) {
      this.#drop(taskId, entry);
      return undefined;
    }
    return { ...entry.record };
  }

  update(taskId: string, patch: TaskPatch): TaskRecord | undefined {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return undefined;
    if (TERMINAL_STATUSES.has(entry.record.status)) return { ...entry.record };
    const next: Record<string, unknown> = { ...entry.record };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    next['lastUpdatedAt'] = new Date().toISOString();
    const record = next as unknown as TaskRecord;
    const payload = taskPayloadBytes(record);
    if (payload > this.maxTaskBytes) {
      throw taskLimitErrors.tooLarge(payload, this.maxTaskBytes);
    }
    const bytes = taskRecordBytes(record);
    const delta = bytes - entry.bytes;
    const owner = record.owner ?? 'anonymous';
    if (delta > 0 && this.usage(owner).bytes + delta > this.maxBytesPerOwner) {
      throw taskLimitErrors.ownerBytesOnUpdate(this.maxBytesPerOwner);
    }
    if (delta > 0 && this.#bytes + delta > this.maxBytes) throw taskLimitErrors.fullOnUpdate();
    entry.record = record;
    entry.touched = Date.now();
    entry.bytes = bytes;
    this.#charge(owner, 0, delta);
    return { ...record };
  }

  #charge(owner: string, count: number, bytes: number): void {
    const usage = this.#owners.get(owner) ?? { count: 0, bytes: 0 };
    usage.count += count;
    usage.bytes += bytes;
    this.#bytes += bytes;
    if (usage.count <= 0) this.#owners.delete(owner);
    else this.#owners.set(owner, usage);
  }

  #drop(taskId: string, entry: Entry): void {
    this.#tasks.delete(taskId);
    this.#charge(entry.record.owner ?? 'anonymous', -1, -entry.bytes);
  }

  #expired(entry: Entry, now: number): boolean {
    return TERMINAL_STATUSES.has(entry.record.status) && now - entry.touched >= entry.record.ttlMs;
  }

  /** Drops expired tasks (and only those). */
  #sweep(): void {
    const now = Date.now();
    for (const [id, entry] of this.#tasks) if (this.#expired(entry, now)) this.#drop(id, entry);
  }
}
