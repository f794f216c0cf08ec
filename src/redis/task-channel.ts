/**
 * The task channel on Redis pub/sub, on the shared subscriber connection:
 * input and cancellation go to the instance that runs the task's handler (its
 * inbox `<prefix>tasks:i:<instanceId>`, found from the task's holder in the
 * RedisTaskStore), and each change of a task is published on
 * `<prefix>tasks:s:<taskId>`, which only instances following that task
 * subscribe to. At most once, like pub/sub itself.
 */
import { randomUUID } from 'node:crypto';
import { isPlainObject } from '../jsonrpc/message.js';
import type { TaskChannel, TaskSignal } from '../stores/task-channel.js';
import type { TaskRecord } from '../stores/tasks.js';
import { leaseSubscriber, parseJsonObject, RedisCommands, type RedisSubscriber, type RedisClientLike, type RedisStoreOptions } from './client.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export interface RedisTaskChannelOptions extends RedisStoreOptions {
  /** This instance: the `instanceId` of its RedisTaskStore (the holder of the tasks it creates). */
  instanceId: string;
  /** The instance running a task (RedisTaskStore.holderOf). */
  holderOf: (taskId: string) => Promise<string | undefined>;
}

const STATUSES: ReadonlySet<unknown> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

const REDIS_TASK_CHANNEL_KEYS = keysOf<RedisTaskChannelOptions>({ instanceId: true, holderOf: true, prefix: true, commandTimeoutMs: true, retryAfterSeconds: true, onError: true, subscriber: true });

export class RedisTaskChannel implements TaskChannel {
  readonly instanceId: string;
  readonly #commands: RedisCommands;
  readonly #subscriber: RedisSubscriber;
  readonly #releaseSubscriber: () => Promise<void>;
  readonly #holderOf: (taskId: string) => Promise<string | undefined>;
  /** Tells this channel's own change messages (already delivered locally by its server) from the others'. */
  readonly #origin = randomUUID();

  constructor(client: RedisClientLike, options: RedisTaskChannelOptions) {
    refuseUnknownKeys(options, REDIS_TASK_CHANNEL_KEYS, 'new RedisTaskChannel() options');
    this.instanceId = options.instanceId;
    this.#holderOf = options.holderOf;
    this.#commands = new RedisCommands(client, options);
    ({ subscriber: this.#subscriber, release: this.#releaseSubscriber } = leaseSubscriber(client, options));
  }

  async deliver(signal: TaskSignal): Promise<void> {
    const holder = await this.#holderOf(signal.taskId);
    if (holder !== undefined) await this.#commands.send(['PUBLISH', this.#inbox(holder), JSON.stringify(signal)]);
  }

  receive(listener: (signal: TaskSignal) => void): Promise<() => void> {
    return this.#subscriber.listen(this.#inbox(this.instanceId), (raw) => {
      const signal = parseSignal(raw);
      if (signal !== undefined) listener(signal);
    });
  }

  async changed(record: TaskRecord): Promise<void> {
    await this.#commands.send(['PUBLISH', this.#status(record.taskId), JSON.stringify({ origin: this.#origin, record })]);
  }

  watch(taskId: string, listener: (record: TaskRecord) => void): Promise<() => void> {
    return this.#subscriber.listen(this.#status(taskId), (raw) => {
      const record = parseChange(raw, taskId, this.#origin);
      if (record !== undefined) listener(record);
    });
  }

  async close(): Promise<void> {
    await this.#releaseSubscriber();
  }

  #inbox(instanceId: string): string {
    return `${this.#commands.prefix}tasks:i:${instanceId}`;
  }

  #status(taskId: string): string {
    return `${this.#commands.prefix}tasks:s:${taskId}`;
  }
}

/** Only well-formed signals reach the runtime (anyone with access to Redis can publish). */
function parseSignal(raw: string): TaskSignal | undefined {
  const value = parseJsonObject(raw);
  if (value === undefined || typeof value['taskId'] !== 'string') return undefined;
  if (value['type'] === 'cancel') return { type: 'cancel', taskId: value['taskId'] };
  const responses = value['inputResponses'];
  return value['type'] === 'input' && isPlainObject(responses) ? { type: 'input', taskId: value['taskId'], inputResponses: responses } : undefined;
}

/** Another process's change of `taskId` (this process's own were delivered locally already). */
function parseChange(raw: string, taskId: string, origin: string): TaskRecord | undefined {
  const value = parseJsonObject(raw);
  if (value === undefined || value['origin'] === origin) return undefined;
  const record = value['record'];
  if (!isPlainObject(record) || record['taskId'] !== taskId || !STATUSES.has(record['status'])) return undefined;
  if (typeof record['createdAt'] !== 'string' || typeof record['lastUpdatedAt'] !== 'string' || typeof record['ttlMs'] !== 'number') return undefined;
  return record as unknown as TaskRecord;
}
