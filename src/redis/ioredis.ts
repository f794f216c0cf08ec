/**
 * An adapter that lets an ioredis client (≥ 5) stand where mcpkit/redis
 * expects a node-redis one. node-redis stays the default (ioredis's own
 * maintainers recommend it for new projects); this is for applications that
 * already hold an ioredis connection. Typed structurally: mcpkit never
 * imports ioredis.
 *
 *   const state = await createRedisState({ client: fromIoredis(new Redis(url)), stateKeys });
 */
import type { RedisClientLike, RedisMessageListener, RedisSubscriberClientLike } from './client.js';

/** The parts of an ioredis client the adapter uses. */
export interface IoredisLike {
  /** `ready` once connected (also `wait`, `connecting`, `reconnecting`, `end`…). */
  readonly status: string;
  call(command: string, ...args: string[]): Promise<unknown>;
  duplicate(override?: { lazyConnect?: boolean }): IoredisLike;
  connect(): Promise<unknown>;
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  quit(): Promise<unknown>;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/** `client` as mcpkit/redis's RedisClientLike. */
export function fromIoredis(client: IoredisLike): RedisClientLike {
  return {
    get isReady() {
      return client.status === 'ready';
    },
    // ioredis has no per-command timeout to pass on: RedisCommands times every command itself.
    sendCommand: (args) => client.call(args[0] ?? '', ...args.slice(1)),
    // Lazy, so the subscriber's connect() opens it (an eager duplicate would already be connecting).
    duplicate: () => subscriberOf(client.duplicate({ lazyConnect: true })),
    on: (event, listener) => client.on(event, listener),
  };
}

/** ioredis reports messages on one 'message' event; node-redis takes a listener per subscription. */
function subscriberOf(client: IoredisLike): RedisSubscriberClientLike {
  const listeners = new Map<string, Set<RedisMessageListener>>();
  client.on('message', (channel: string, message: string) => {
    for (const listener of listeners.get(channel) ?? []) listener(message, channel);
  });
  const names = (channels: string | string[]): string[] => (typeof channels === 'string' ? [channels] : channels);
  return {
    get isReady() {
      return client.status === 'ready';
    },
    connect: () => client.connect(),
    async subscribe(channels, listener) {
      for (const channel of names(channels)) {
        let set = listeners.get(channel);
        if (set === undefined) listeners.set(channel, (set = new Set()));
        set.add(listener);
      }
      return client.subscribe(...names(channels));
    },
    async unsubscribe(channels, listener) {
      const drop: string[] = [];
      for (const channel of names(channels)) {
        const set = listeners.get(channel);
        if (listener !== undefined) set?.delete(listener);
        if (listener === undefined || set?.size === 0) {
          listeners.delete(channel);
          drop.push(channel);
        }
      }
      if (drop.length > 0) await client.unsubscribe(...drop);
    },
    on: (event, listener) => client.on(event, listener),
    quit: () => client.quit(),
  };
}
