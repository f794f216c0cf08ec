/**
 * The SSE event log on Redis Streams, shared by every instance: a client that
 * resumes with Last-Event-ID on another instance gets what it missed, then
 * (`follow`) the events the request keeps appending where it runs. The same
 * bounds as MemoryEventStore, kept by one Lua script per call.
 */
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import type { EventStore, EventStoreLimits, ReplayWriter, StreamFollow } from '../stores/contracts.js';
import { followStream, replayStream, type StreamRead } from '../stores/follow.js';
import { eventStoreLimits } from '../stores/memory.js';
import { leaseSubscriber, RedisCommands, type RedisSubscriber, type RedisClientLike, type RedisStoreOptions } from './client.js';
import { APPEND, FINISH, READ, RELEASE, USAGE } from './event-scripts.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export interface RedisEventStoreOptions extends RedisStoreOptions, EventStoreLimits {
  /** A stream not written for this long is dropped (ms, default 1 hour): sessions whose instance died are never released. */
  idleTtlMs?: number;
}

export const DEFAULT_EVENT_IDLE_TTL_MS = 60 * 60_000;

const REDIS_EVENT_STORE_KEYS = keysOf<RedisEventStoreOptions>({ idleTtlMs: true, prefix: true, commandTimeoutMs: true, retryAfterSeconds: true, onError: true, subscriber: true, maxBytesPerStream: true, maxBytesPerOwner: true, maxBytesPerClient: true, maxBytes: true, maxEventsPerStream: true, maxEvents: true });

export class RedisEventStore implements EventStore {
  readonly #commands: RedisCommands;
  readonly #subscriber: RedisSubscriber;
  readonly #releaseSubscriber: () => Promise<void>;
  readonly #prefix: string;
  readonly #limits: string[];
  readonly #ttlMs: number;

  constructor(client: RedisClientLike, options: RedisEventStoreOptions = {}) {
    refuseUnknownKeys(options, REDIS_EVENT_STORE_KEYS, 'new RedisEventStore() options');
    this.#commands = new RedisCommands(client, options);
    this.#prefix = `${this.#commands.prefix}ev:`;
    const limits = eventStoreLimits(options, 'RedisEventStore');
    this.#limits = [limits.maxBytesPerStream, limits.maxBytesPerOwner, limits.maxBytesPerClient, limits.maxBytes, limits.maxEventsPerStream, limits.maxEvents].map(String);
    this.#ttlMs = options.idleTtlMs ?? DEFAULT_EVENT_IDLE_TTL_MS;
    if (!Number.isInteger(this.#ttlMs) || this.#ttlMs <= 0) throw new RangeError(`RedisEventStore: idleTtlMs must be a positive integer (got ${this.#ttlMs})`);
    ({ subscriber: this.#subscriber, release: this.#releaseSubscriber } = leaseSubscriber(client, options));
  }

  async append(owner: string, streamId: string, message?: JsonRpcMessage, client?: string): Promise<string> {
    const data = message === undefined ? '' : JSON.stringify(message);
    const args = [this.#prefix, owner, streamId, data, message === undefined ? '0' : '1', client ?? '', ...this.#limits, String(Date.now()), String(this.#ttlMs)];
    const seq = await this.#commands.run(APPEND, args);
    if (seq === 'owner') throw new Error(`event store: stream "${streamId}" belongs to another owner`);
    return `${streamId}:${String(seq)}`;
  }

  async replayAfter(owner: string, lastEventId: string, write: ReplayWriter): Promise<string | undefined> {
    return replayStream((streamId, after) => this.#read(owner, streamId, after), lastEventId, write);
  }

  async release(owner: string): Promise<void> {
    await this.#commands.run(RELEASE, [this.#prefix, owner]);
  }

  async finish(owner: string, streamId: string): Promise<void> {
    await this.#commands.run(FINISH, [this.#prefix, owner, streamId]);
  }

  async follow(owner: string, lastEventId: string, write: ReplayWriter, signal: AbortSignal): Promise<StreamFollow | undefined> {
    const watch = async (streamId: string, changed: () => void): Promise<() => void> => {
      const stopListening = await this.#subscriber.listen(`${this.#prefix}n:${streamId}`, changed);
      // Pub/sub keeps nothing: after a reconnect, read again.
      const stopReconnect = this.#subscriber.onReconnect(changed);
      return () => {
        stopListening();
        stopReconnect();
      };
    };
    return followStream((streamId, after) => this.#read(owner, streamId, after), watch, lastEventId, write, signal);
  }

  /** Bytes and events held in total, and bytes held by an owner and by a client (for tests and metrics). */
  async usage(owner = '', client = ''): Promise<{ bytes: number; events: number; ownerBytes: number; clientBytes: number }> {
    const reply = (await this.#commands.run(USAGE, [this.#prefix, owner, client])) as number[];
    return { bytes: Number(reply[0]), events: Number(reply[1]), ownerBytes: Number(reply[2]), clientBytes: Number(reply[3]) };
  }

  /** Closes the subscriber connection this store opened (the client stays yours). */
  async close(): Promise<void> {
    await this.#releaseSubscriber();
  }

  async #read(owner: string, streamId: string, after: number): Promise<StreamRead | undefined> {
    const reply = await this.#commands.run(READ, [this.#prefix, owner, streamId, String(after)]);
    if (!Array.isArray(reply)) return undefined;
    const events: [string, JsonRpcMessage][] = [];
    for (let i = 1; i + 1 < reply.length; i += 2) events.push([`${streamId}:${String(reply[i])}`, JSON.parse(String(reply[i + 1])) as JsonRpcMessage]);
    return { events, finished: Number(reply[0]) === 1 };
  }
}
