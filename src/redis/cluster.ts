/**
 * The cluster channel on Redis pub/sub: one channel per instance
 * (`<prefix>cluster:i:<instanceId>`) and one every instance hears
 * (`<prefix>cluster:all`). At most once, like pub/sub itself. While it listens,
 * an instance renews `<prefix>cluster:live:<instanceId>` (a key with a TTL), so
 * the others learn within `instanceTtlMs` that it crashed.
 */
import { randomBytes } from 'node:crypto';
import type { ClusterChannel, ClusterListener, ClusterMessage } from '../stores/shared-sessions.js';
import { leaseSubscriber, parseJsonObject, RedisCommands, type RedisSubscriber, type RedisClientLike, type RedisStoreOptions } from './client.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import { unrefTimer } from '../util/timers.js';

export interface RedisClusterChannelOptions extends RedisStoreOptions {
  /** This instance's name on the channel (default: random). Letters, digits, `-` and `_`, at most 64. */
  instanceId?: string;
  /** An instance that has not renewed its liveness key for this long counts as dead (ms, default 10,000; renewed every third of it). */
  instanceTtlMs?: number;
}

export const DEFAULT_INSTANCE_TTL_MS = 10_000;

const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const TYPES: ReadonlySet<unknown> = new Set(['answer', 'cancel', 'stream', 'changed', 'ended']);

const REDIS_CLUSTER_CHANNEL_KEYS = keysOf<RedisClusterChannelOptions>({ instanceId: true, instanceTtlMs: true, prefix: true, commandTimeoutMs: true, retryAfterSeconds: true, onError: true, subscriber: true });

export class RedisClusterChannel implements ClusterChannel {
  readonly instanceId: string;
  /** This run of the instance: a restarted instance is another one to those waiting on the old run. */
  readonly incarnation = randomBytes(6).toString('base64url');
  readonly #commands: RedisCommands;
  readonly #subscriber: RedisSubscriber;
  readonly #releaseSubscriber: () => Promise<void>;
  readonly #ttlMs: number;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(client: RedisClientLike, options: RedisClusterChannelOptions = {}) {
    refuseUnknownKeys(options, REDIS_CLUSTER_CHANNEL_KEYS, 'new RedisClusterChannel() options');
    const instanceId = options.instanceId ?? randomBytes(6).toString('base64url');
    if (!INSTANCE_ID.test(instanceId)) throw new RangeError(`mcpkit/redis: instanceId must be 1-64 letters, digits, "-" or "_" (got ${JSON.stringify(instanceId)})`);
    this.instanceId = instanceId;
    this.#commands = new RedisCommands(client, options);
    ({ subscriber: this.#subscriber, release: this.#releaseSubscriber } = leaseSubscriber(client, options));
    this.#ttlMs = options.instanceTtlMs ?? DEFAULT_INSTANCE_TTL_MS;
    if (!Number.isInteger(this.#ttlMs) || this.#ttlMs < 300) throw new RangeError(`mcpkit/redis: instanceTtlMs must be an integer of at least 300 (got ${this.#ttlMs})`);
  }

  get livenessCheckMs(): number {
    return Math.floor(this.#ttlMs / 3);
  }

  /** False once `instanceId` (that run of it, given `incarnation`) stopped, or missed its heartbeats for instanceTtlMs. */
  async alive(instanceId: string, incarnation?: string): Promise<boolean> {
    const running = await this.#commands.send(['GET', this.#live(instanceId)]);
    return typeof running === 'string' && (incarnation === undefined || running === incarnation);
  }

  async send(instanceId: string, message: ClusterMessage): Promise<void> {
    await this.#commands.send(['PUBLISH', this.#channel(instanceId), JSON.stringify(message)]);
  }

  async broadcast(message: ClusterMessage): Promise<void> {
    await this.#commands.send(['PUBLISH', this.#all, JSON.stringify(message)]);
  }

  async listen(listener: ClusterListener): Promise<() => void> {
    const receive = (raw: string): void => {
      const message = parse(raw);
      if (message !== undefined) listener(message);
    };
    const stops = await Promise.all([this.#subscriber.listen(this.#channel(this.instanceId), receive), this.#subscriber.listen(this.#all, receive)]);
    this.#startHeartbeat();
    return () => {
      for (const stop of stops) stop();
    };
  }

  async close(): Promise<void> {
    if (this.#heartbeat !== undefined) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
      // Stopped on purpose: the others need not wait for the TTL.
      await this.#commands.send(['DEL', this.#live(this.instanceId)]).catch(() => undefined);
    }
    await this.#releaseSubscriber();
  }

  #startHeartbeat(): void {
    if (this.#heartbeat !== undefined) return;
    // A missed beat (Redis down) is made up by the next one; meanwhile no one can check either.
    const beat = (): void => void this.#commands.send(['SET', this.#live(this.instanceId), this.incarnation, 'PX', String(this.#ttlMs)]).catch(() => undefined);
    beat();
    this.#heartbeat = setInterval(beat, this.livenessCheckMs);
    unrefTimer(this.#heartbeat);
  }

  #live(instanceId: string): string {
    return `${this.#commands.prefix}cluster:live:${instanceId}`;
  }

  get #all(): string {
    return `${this.#commands.prefix}cluster:all`;
  }

  #channel(instanceId: string): string {
    return `${this.#commands.prefix}cluster:i:${instanceId}`;
  }
}

/** Only well-formed messages reach the engine (anyone with access to Redis can publish). */
function parse(raw: string): ClusterMessage | undefined {
  const message = parseJsonObject(raw);
  if (message === undefined || !TYPES.has(message['type']) || typeof message['session'] !== 'string') return undefined;
  if (message['type'] === 'changed') return typeof message['rev'] === 'number' ? (message as unknown as ClusterMessage) : undefined;
  if (message['type'] === 'ended') return message as unknown as ClusterMessage;
  return typeof message['message'] === 'object' && message['message'] !== null ? (message as unknown as ClusterMessage) : undefined;
}
