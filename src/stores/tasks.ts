/**
 * Task state for the 2026-07-28 tasks extension (SEP-2663): one record per
 * task, readable by `tasks/get` from any request. The memory store is the
 * default; another backend implements the same interface. Every method may
 * answer synchronously or with a promise; callers always await.
 */
import { randomUUID } from 'node:crypto';
import type { MaybePromise } from './contracts.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export interface TaskInputRequest {
  method: string;
  params: Record<string, unknown>;
}

export interface TaskRecord {
  readonly taskId: string;
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

type Mutable = Omit<TaskRecord, 'taskId' | 'createdAt' | 'lastUpdatedAt' | 'ttlMs'>;
/** Fields to change; a field set to `undefined` is removed. */
export type TaskPatch = { [K in keyof Mutable]?: Mutable[K] | undefined };

/**
 * Contract:
 * - `create` stores a new `working` task and answers it; once it answered,
 *   `get` of that id resolves (the task is durably created).
 * - `get` of an unknown or expired id answers `undefined`.
 * - `update` applies a patch and answers the new record; a terminal task
 *   (`completed`, `failed`, `cancelled`) never changes again, and `update`
 *   answers it unchanged. Unknown ids answer `undefined`.
 * - Storage is bounded; a task stays readable at least `ttlMs` after its last change.
 */
export interface TaskStore {
  create(): MaybePromise<TaskRecord>;
  get(taskId: string): MaybePromise<TaskRecord | undefined>;
  update(taskId: string, patch: TaskPatch): MaybePromise<TaskRecord | undefined>;
}

export interface MemoryTaskStoreOptions {
  /** How long a task stays readable after its last change, in ms (positive integer; default 60 s). */
  ttlMs?: number;
  /** The polling interval suggested to clients, in ms (positive integer; default 250). */
  pollIntervalMs?: number;
  /** Most tasks kept at once (default 10 000); the oldest finished ones go first. */
  maxTasks?: number;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`MemoryTaskStore: ${name} must be a positive integer (got ${value})`);
  return value;
}

/** Tasks in a Map; expired ones are dropped when read and in a sweep before each create. */
export class MemoryTaskStore implements TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly maxTasks: number;
  readonly #tasks = new Map<string, { record: TaskRecord; touched: number }>();

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.ttlMs = positiveInteger(options.ttlMs ?? 60_000, 'ttlMs');
    this.pollIntervalMs = positiveInteger(options.pollIntervalMs ?? 250, 'pollIntervalMs');
    this.maxTasks = positiveInteger(options.maxTasks ?? 10_000, 'maxTasks');
  }

  get size(): number {
    return this.#tasks.size;
  }

  create(): TaskRecord {
    this.#sweep();
    if (this.#tasks.size >= this.maxTasks) throw new Error(`MemoryTaskStore: full (${this.maxTasks} unfinished tasks)`);
    const now = new Date().toISOString();
    const record: TaskRecord = { taskId: randomUUID(), status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: this.ttlMs, pollIntervalMs: this.pollIntervalMs };
    this.#tasks.set(record.taskId, { record, touched: Date.now() });
    return { ...record };
  }

  get(taskId: string): TaskRecord | undefined {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return undefined;
    if (this.#expired(entry, Date.now())) {
      this.#tasks.delete(taskId);
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
    entry.record = next as unknown as TaskRecord;
    entry.touched = Date.now();
    return { ...entry.record };
  }

  #expired(entry: { record: TaskRecord; touched: number }, now: number): boolean {
    return TERMINAL_STATUSES.has(entry.record.status) && now - entry.touched >= entry.record.ttlMs;
  }

  /** Drops expired tasks; when still full, the finished task changed longest ago. */
  #sweep(): void {
    const now = Date.now();
    let oldest: { id: string; touched: number } | undefined;
    for (const [id, entry] of this.#tasks) {
      if (this.#expired(entry, now)) this.#tasks.delete(id);
      else if (TERMINAL_STATUSES.has(entry.record.status) && (oldest === undefined || entry.touched < oldest.touched)) oldest = { id, touched: entry.touched };
    }
    if (this.#tasks.size >= this.maxTasks && oldest !== undefined) this.#tasks.delete(oldest.id);
  }
}
