/**
 * The notification bus on Redis pub/sub: an event published on any instance
 * reaches the subscribers of every instance, the publisher's included, once
 * (the publisher does not deliver locally; it hears its own message back).
 * While Redis is unreachable `publish` rejects with StoreUnavailableError and
 * events are lost (pub/sub keeps nothing).
 */
import { isBusEvent, type BusEvent, type BusListener, type NotificationBus } from '../stores/bus.js';
import { leaseSubscriber, parseJsonObject, RedisCommands, type RedisSubscriber, type RedisClientLike, type RedisStoreOptions } from './client.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

const REDIS_STORE_KEYS = keysOf<RedisStoreOptions>({ prefix: true, commandTimeoutMs: true, retryAfterSeconds: true, onError: true, subscriber: true });

export class RedisNotificationBus implements NotificationBus {
  readonly channel: string;
  readonly #commands: RedisCommands;
  readonly #subscriber: RedisSubscriber;
  readonly #releaseSubscriber: () => Promise<void>;
  readonly #listeners = new Set<BusListener>();
  readonly #onError: ((error: unknown) => void) | undefined;
  #ready: Promise<void> | undefined;
  #stop: (() => void) | undefined;

  constructor(client: RedisClientLike, options: RedisStoreOptions = {}) {
    refuseUnknownKeys(options, REDIS_STORE_KEYS, 'new RedisNotificationBus() options');
    this.#commands = new RedisCommands(client, options);
    this.channel = `${this.#commands.prefix}bus`;
    ({ subscriber: this.#subscriber, release: this.#releaseSubscriber } = leaseSubscriber(client, options));
    this.#onError = options.onError;
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /**
   * Resolves once this instance receives what is published (the first
   * `subscribe` starts it; await this before relying on delivery, e.g. at start-up).
   */
  ready(): Promise<void> {
    this.#ready ??= this.#subscriber.listen(this.channel, (message) => this.#deliver(message)).then(
      (stop) => {
        this.#stop = stop;
      },
      (error: unknown) => {
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }

  async publish(event: BusEvent): Promise<void> {
    await this.#commands.send(['PUBLISH', this.channel, JSON.stringify(event)]);
  }

  subscribe(listener: BusListener): () => void {
    this.#listeners.add(listener);
    // Redis down at the first subscribe: retried by the next subscribe or ready().
    this.ready().catch((error: unknown) => this.#onError?.(error));
    return () => {
      this.#listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    this.#stop?.();
    await this.#releaseSubscriber();
  }

  #deliver(message: string): void {
    const event = parseJsonObject(message);
    // Another writer on the channel (or a newer mcpkit) may send what this one does not know.
    if (!isBusEvent(event)) return;
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One broken listener must not starve the others.
      }
    }
  }
}
