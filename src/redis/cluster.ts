/**
 * The cluster channel on Redis pub/sub: one channel per instance
 * (`<prefix>cluster:i:<instanceId>`) and one every instance hears
 * (`<prefix>cluster:all`). At most once, like pub/sub itself.
 */
import { randomBytes } from 'node:crypto';
import type { ClusterChannel, ClusterListener, ClusterMessage } from '../transports/http/shared.js';
import { RedisCommands, RedisSubscriber, type RedisClientLike, type RedisStoreOptions } from './client.js';

export interface RedisClusterChannelOptions extends RedisStoreOptions {
  /** This instance's name on the channel (default: random). Letters, digits, `-` and `_`, at most 64. */
  instanceId?: string;
}

const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const TYPES: ReadonlySet<unknown> = new Set(['answer', 'cancel', 'stream', 'changed', 'ended']);

export class RedisClusterChannel implements ClusterChannel {
  readonly instanceId: string;
  readonly #commands: RedisCommands;
  readonly #subscriber: RedisSubscriber;
  readonly #ownsSubscriber: boolean;

  constructor(client: RedisClientLike, options: RedisClusterChannelOptions = {}) {
    const instanceId = options.instanceId ?? randomBytes(6).toString('base64url');
    if (!INSTANCE_ID.test(instanceId)) throw new RangeError(`mcpkit/redis: instanceId must be 1-64 letters, digits, "-" or "_" (got ${JSON.stringify(instanceId)})`);
    this.instanceId = instanceId;
    this.#commands = new RedisCommands(client, options);
    this.#ownsSubscriber = options.subscriber === undefined;
    this.#subscriber = options.subscriber ?? new RedisSubscriber(client, options);
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
    return () => {
      for (const stop of stops) stop();
    };
  }

  async close(): Promise<void> {
    if (this.#ownsSubscriber) await this.#subscriber.close();
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
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (!TYPES.has(message['type']) || typeof message['session'] !== 'string') return undefined;
  if (message['type'] === 'changed') return typeof message['rev'] === 'number' ? (message as unknown as ClusterMessage) : undefined;
  if (message['type'] === 'ended') return message as unknown as ClusterMessage;
  return typeof message['message'] === 'object' && message['message'] !== null ? (message as unknown as ClusterMessage) : undefined;
}
