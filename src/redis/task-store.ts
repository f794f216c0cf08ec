/**
 * Tasks on Redis, shared by every instance: `create` answers once the record
 * is in Redis, `get` and `update` (input, cancellation) work from any
 * instance, and the memory store's quotas hold across all of them. A task's
 * instance renews a lease on it; when that instance dies, the task fails once
 * the lease runs out (whoever reads it next, or the next create, records it).
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../jsonrpc/errors.js';
import {
  TASK_PREPAID_PAYLOAD,
  taskFieldBytes,
  taskLimitErrors,
  taskRecordBytes,
  taskStoreLimits,
  TERMINAL_STATUSES,
  type MemoryTaskStoreOptions,
  type TaskOwnership,
  type TaskPatch,
  type TaskRecord,
  type TaskStore,
} from '../stores/tasks.js';
import { RedisCommands, type RedisClientLike, type RedisStoreOptions } from './client.js';
import { CREATE, GET, RENEW, TASK_USAGE, UPDATE } from './task-scripts.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import { unrefTimer } from '../util/timers.js';

export interface RedisTaskStoreOptions extends Omit<RedisStoreOptions, 'subscriber'>, MemoryTaskStoreOptions {
  /** How long a task outlives its instance's last renewal before it fails (ms, default 30,000). */
  leaseMs?: number;
  /** How often this instance renews the leases of the tasks it runs (ms, default leaseMs / 3). */
  renewEveryMs?: number;
  /** Names this instance in the records it creates (`holderOf`); default a random UUID. */
  instanceId?: string;
}

export const DEFAULT_TASK_LEASE_MS = 30_000;

/** Fields a patch cannot change: they identify the task and its quota. */
const FIXED = new Set(['taskId', 'owner', 'principal', 'createdAt', 'lastUpdatedAt', 'ttlMs']);

const REDIS_TASK_STORE_KEYS = keysOf<RedisTaskStoreOptions>({ leaseMs: true, renewEveryMs: true, instanceId: true, prefix: true, commandTimeoutMs: true, retryAfterSeconds: true, onError: true, ttlMs: true, pollIntervalMs: true, maxTasks: true, maxTasksPerOwner: true, maxBytes: true, maxBytesPerOwner: true, maxTaskBytes: true });

export class RedisTaskStore implements TaskStore {
  readonly instanceId: string;
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly #limits: Required<MemoryTaskStoreOptions>;
  readonly #commands: RedisCommands;
  readonly #prefix: string;
  readonly #leaseError: string;
  readonly #renewEveryMs: number;
  readonly #onError: ((error: unknown) => void) | undefined;
  /** Tasks created here and not finished: their leases are renewed. */
  readonly #held = new Set<string>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(client: RedisClientLike, options: RedisTaskStoreOptions = {}) {
    refuseUnknownKeys(options, REDIS_TASK_STORE_KEYS, 'new RedisTaskStore() options');
    this.#commands = new RedisCommands(client, options);
    this.#prefix = `${this.#commands.prefix}task:`;
    this.#limits = taskStoreLimits(options, 'RedisTaskStore');
    this.ttlMs = this.#limits.ttlMs;
    this.pollIntervalMs = this.#limits.pollIntervalMs;
    this.leaseMs = options.leaseMs ?? DEFAULT_TASK_LEASE_MS;
    this.#renewEveryMs = options.renewEveryMs ?? Math.max(1, Math.floor(this.leaseMs / 3));
    if (!Number.isInteger(this.leaseMs) || this.leaseMs <= 0) throw new RangeError(`RedisTaskStore: leaseMs must be a positive integer (got ${this.leaseMs})`);
    if (!Number.isInteger(this.#renewEveryMs) || this.#renewEveryMs <= 0 || this.#renewEveryMs >= this.leaseMs) {
      throw new RangeError(`RedisTaskStore: renewEveryMs must be a positive integer below leaseMs (got ${this.#renewEveryMs})`);
    }
    this.instanceId = options.instanceId ?? randomUUID();
    this.#onError = options.onError;
    this.#leaseError = JSON.stringify({
      code: ErrorCode.InternalError,
      message: `The task failed: the server instance running it stopped (its lease of ${this.leaseMs} ms ran out)`,
    });
  }

  async create(ownership: TaskOwnership = { owner: 'anonymous' }): Promise<TaskRecord> {
    const { owner, principal } = ownership;
    const taskId = randomUUID();
    const now = Date.now();
    const base = taskRecordBytes({ taskId, owner, ...(principal !== undefined && { principal }), status: 'working', createdAt: '', lastUpdatedAt: '', ttlMs: this.ttlMs });
    const l = this.#limits;
    const reply = (await this.#run(CREATE, now, [taskId, owner, principal ?? '', String(this.ttlMs), String(this.pollIntervalMs), String(base), ...[l.maxTasks, l.maxTasksPerOwner, l.maxBytes, l.maxBytesPerOwner, now + this.leaseMs].map(String), this.instanceId])) as unknown[];
    const outcome = String(reply[0]);
    if (outcome === 'maxTasksPerOwner') throw taskLimitErrors.ownerCount(Number(reply[1]), l.maxTasksPerOwner);
    if (outcome === 'maxBytesPerOwner') throw taskLimitErrors.ownerBytes(Number(reply[2]), l.maxBytesPerOwner);
    if (outcome === 'maxTasks' || outcome === 'maxBytes') throw taskLimitErrors.full(outcome);
    this.#hold(taskId);
    const iso = new Date(now).toISOString();
    return { taskId, owner, ...(principal !== undefined && { principal }), status: 'working', createdAt: iso, lastUpdatedAt: iso, ttlMs: this.ttlMs, pollIntervalMs: this.pollIntervalMs };
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const reply = await this.#run(GET, Date.now(), [taskId]);
    return Array.isArray(reply) ? this.#record(taskId, reply) : undefined;
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const triples: string[] = [];
    for (const [key, value] of Object.entries(patch)) {
      if (FIXED.has(key)) continue;
      const bytes = value === undefined ? 0 : taskFieldBytes(key, value);
      if (bytes === Number.POSITIVE_INFINITY) throw taskLimitErrors.tooLarge(bytes, this.#limits.maxTaskBytes);
      triples.push(key, value === undefined ? '' : JSON.stringify(value), String(bytes));
    }
    const l = this.#limits;
    const reply = await this.#run(UPDATE, Date.now(), [taskId, String(l.maxTaskBytes), String(l.maxBytesPerOwner), String(l.maxBytes), ...triples]);
    if (!Array.isArray(reply)) {
      this.#held.delete(taskId);
      return undefined;
    }
    const outcome = String(reply[0]);
    if (outcome === 'maxTaskBytes') throw taskLimitErrors.tooLarge(Number(reply[1]), l.maxTaskBytes);
    if (outcome === 'maxBytesPerOwner') throw taskLimitErrors.ownerBytesOnUpdate(l.maxBytesPerOwner);
    if (outcome === 'maxBytes') throw taskLimitErrors.fullOnUpdate();
    const record = this.#record(taskId, reply.slice(1));
    if (TERMINAL_STATUSES.has(record.status)) this.#held.delete(taskId);
    return record;
  }

  /** The instance that created the task (and runs its handler), or undefined for an unknown task. */
  async holderOf(taskId: string): Promise<string | undefined> {
    const reply = await this.#run(GET, Date.now(), [taskId]);
    if (!Array.isArray(reply)) return undefined;
    return this.#fields(reply).get('holder');
  }

  /** Tasks and bytes held in total and by one owner (for tests and metrics). */
  async usage(owner = ''): Promise<{ count: number; bytes: number; ownerCount: number; ownerBytes: number }> {
    const reply = (await this.#run(TASK_USAGE, Date.now(), [owner])) as unknown[];
    return { count: Number(reply[0]), bytes: Number(reply[1]), ownerCount: Number(reply[2]), ownerBytes: Number(reply[3]) };
  }

  /** Renews the leases of this instance's running tasks now (the timer does it every `renewEveryMs`). */
  async renew(): Promise<void> {
    if (this.#held.size === 0) return;
    const ids = [...this.#held];
    const gone = (await this.#run(RENEW, Date.now(), [String(Date.now() + this.leaseMs), ...ids])) as unknown[];
    // Finished, cancelled or failed elsewhere: nothing to keep alive.
    for (const id of gone) this.#held.delete(String(id));
    if (this.#held.size === 0) this.#stopTimer();
  }

  /** Stops renewing (this instance's unfinished tasks then fail once their leases run out). The client stays yours. */
  close(): void {
    this.#held.clear();
    this.#stopTimer();
  }

  #hold(taskId: string): void {
    this.#held.add(taskId);
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      this.renew().catch((error: unknown) => this.#onError?.(error));
    }, this.#renewEveryMs);
    unrefTimer(this.#timer);
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #run(script: typeof GET, now: number, args: string[]): Promise<unknown> {
    return this.#commands.run(script, [this.#prefix, String(now), String(TASK_PREPAID_PAYLOAD), this.#leaseError, String(Buffer.byteLength(this.#leaseError)), new Date(now).toISOString(), ...args]);
  }

  #fields(flat: unknown[]): Map<string, string> {
    const fields = new Map<string, string>();
    for (let i = 0; i + 1 < flat.length; i += 2) fields.set(String(flat[i]), String(flat[i + 1]));
    return fields;
  }

  #record(taskId: string, flat: unknown[]): TaskRecord {
    const fields = this.#fields(flat);
    const record: Record<string, unknown> = { taskId, owner: fields.get('owner') };
    const principal = fields.get('principal');
    if (principal !== undefined) record['principal'] = principal;
    record['createdAt'] = fields.get('createdAt');
    record['lastUpdatedAt'] = fields.get('lastUpdatedAt');
    record['ttlMs'] = Number(fields.get('ttlMs'));
    for (const [key, value] of fields) if (key.startsWith('f:')) record[key.slice(2)] = JSON.parse(value);
    return record as unknown as TaskRecord;
  }
}
