/**
 * What mcpkit/redis needs from a Redis client, typed structurally so the
 * official node-redis client (`redis` / `@redis/client` ≥ 6, RESP2 or RESP3)
 * fits as it is and mcpkit never imports it. Every command goes through
 * `sendCommand` with a timeout; a Redis that is down or slow becomes a
 * StoreUnavailableError, never a hang or an unhandled 'error' event.
 */
import { createHash } from 'node:crypto';
import { isPlainObject } from '../jsonrpc/message.js';
import { StoreUnavailableError } from '../stores/errors.js';

/** Per-command options mcpkit passes (node-redis `CommandOptions`). */
export interface RedisCommandOptions {
  timeout?: number;
}

/** A message listener on a subscribed channel. */
export type RedisMessageListener = (message: string, channel: string) => unknown;

/** The connection that `duplicate()` answers: mcpkit connects it and uses it for SUBSCRIBE only. */
export interface RedisSubscriberClientLike {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  subscribe(channels: string | string[], listener: RedisMessageListener): Promise<unknown>;
  unsubscribe(channels: string | string[], listener?: RedisMessageListener): Promise<unknown>;
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown;
  /** node-redis ≥ 5; `quit()` is used when absent. */
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
}

/** The client the user passes in, connected (node-redis: `await createClient({ url }).connect()`). */
export interface RedisClientLike {
  readonly isReady: boolean;
  sendCommand(args: string[], options?: RedisCommandOptions): Promise<unknown>;
  duplicate(): RedisSubscriberClientLike;
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown;
}

export interface RedisStoreOptions {
  /** Prefix of every key and channel (default `mcpkit:`); give each application its own. */
  prefix?: string;
  /** How long one command may take before the call fails with StoreUnavailableError (ms, default 2,000). */
  commandTimeoutMs?: number;
  /** `retryAfterSeconds` of the StoreUnavailableError raised while Redis is unreachable (default 5). */
  retryAfterSeconds?: number;
  /** Connection errors of the client and the subscriber connection (default: ignored; calls fail with StoreUnavailableError). */
  onError?: (error: unknown) => void;
  /** A subscriber connection to share between stores (default: each store that needs one duplicates the client). */
  subscriber?: RedisSubscriber;
}

export const DEFAULT_PREFIX = 'mcpkit:';
export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

/** A pub/sub message as a JSON object; undefined when it is not one (anyone with access to Redis can publish). */
export function parseJsonObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Server replies that mean "not now" rather than "wrong". */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS)\b/;
/** A reply error from the server (node-redis ErrorReply, ioredis ReplyError): an uppercase code, then text. */
const REPLY = /^[A-Z][A-Z_]+ /;

const guarded = new WeakSet<object>();

/** Keeps an 'error' event from crashing the process: node-redis emits one per failed (re)connection. */
export function guardErrors(client: { on(event: 'error', listener: (error?: unknown) => void): unknown }, onError: ((error: unknown) => void) | undefined): void {
  if (guarded.has(client)) return;
  guarded.add(client);
  client.on('error', (error) => {
    try {
      onError?.(error);
    } catch {
      // A throwing onError must not turn into an uncaught exception.
    }
  });
}

/** A Lua script run by EVALSHA, loaded with EVAL the first time a server lacks it. */
export class RedisScript {
  readonly sha: string;
  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }
}

/** Runs commands with the timeout and error mapping every store shares. */
export class RedisCommands {
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly retryAfterSeconds: number;

  constructor(
    readonly client: RedisClientLike,
    options: RedisStoreOptions,
  ) {
    this.prefix = options.prefix ?? DEFAULT_PREFIX;
    this.timeoutMs = positive(options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS, 'commandTimeoutMs');
    this.retryAfterSeconds = positive(options.retryAfterSeconds ?? 5, 'retryAfterSeconds');
    guardErrors(client, options.onError);
  }

  unavailable(what: string, cause?: unknown): StoreUnavailableError {
    return new StoreUnavailableError(`Shared state is unavailable: Redis ${what}; retry in ${this.retryAfterSeconds} s`, this.retryAfterSeconds, { cause });
  }

  async send(args: string[]): Promise<unknown> {
    // Disconnected: fail now rather than queue behind a reconnect for the whole timeout.
    if (!this.client.isReady) throw this.unavailable('is not connected');
    // node-redis's own `timeout` stops counting once the command is written, so a hung server needs this one.
    const reply = this.client.sendCommand(args, { timeout: this.timeoutMs });
    try {
      return await withTimeout(reply, this.timeoutMs, () => this.unavailable(`did not answer ${args[0] ?? ''} within ${this.timeoutMs} ms`));
    } catch (error) {
      throw error instanceof StoreUnavailableError ? error : this.#map(error, args[0] ?? '');
    }
  }

  /** Runs `script` with its arguments (keys are derived inside from the prefix: standalone Redis or one primary). */
  async run(script: RedisScript, args: string[]): Promise<unknown> {
    try {
      return await this.send(['EVALSHA', script.sha, '0', ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.send(['EVAL', script.source, '0', ...args]);
    }
  }

  #map(error: unknown, command: string): Error {
    const message = error instanceof Error ? error.message : String(error);
    if (REPLY.test(message) && !UNAVAILABLE_REPLY.test(message)) return error instanceof Error ? error : new Error(message);
    if (/timeout/i.test(message)) return this.unavailable(`did not answer ${command} within ${this.timeoutMs} ms`, error);
    return this.unavailable(`failed (${message})`, error);
  }
}

/** `promise`, or `timedOut()` after `ms`; the loser's rejection is handled. */
async function withTimeout<T>(promise: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`mcpkit/redis: ${name} must be a positive number (got ${value})`);
  return value;
}

/**
 * One subscriber connection (a `duplicate()` of the client) shared by the
 * stores of one process: channel listeners are counted locally, so each
 * channel is subscribed once. node-redis resubscribes after a reconnect;
 * `onReconnect` listeners then re-read what they may have missed.
 */
export class RedisSubscriber {
  readonly #commands: RedisCommands;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #channels = new Map<string, { listeners: Set<(message: string) => void>; subscribed: Promise<unknown> }>();
  readonly #reconnectListeners = new Set<() => void>();
  #client: RedisSubscriberClientLike | undefined;
  #connecting: Promise<RedisSubscriberClientLike> | undefined;
  #readyOnce = false;
  #closed = false;

  constructor(client: RedisClientLike, options: Omit<RedisStoreOptions, 'subscriber'> = {}) {
    this.#commands = new RedisCommands(client, options);
    this.#onError = options.onError;
  }

  /** Registers `listener` on `channel`; answers once Redis confirmed the subscription. */
  async listen(channel: string, listener: (message: string) => void): Promise<() => void> {
    let entry = this.#channels.get(channel);
    if (entry === undefined) {
      const subscribed = this.#connect().then((client) => this.#timed(client.subscribe(channel, this.#dispatch), 'SUBSCRIBE'));
      this.#channels.set(channel, (entry = { listeners: new Set(), subscribed }));
      // A failed subscription is forgotten, so the next listener tries again.
      subscribed.catch(() => {
        if (this.#channels.get(channel) === entry) this.#channels.delete(channel);
      });
    }
    entry.listeners.add(listener);
    const stop = (): void => this.#remove(channel, listener);
    try {
      await entry.subscribed;
    } catch (error) {
      stop();
      throw error;
    }
    return stop;
  }

  /** Called after the subscriber connection came back (messages published meanwhile were lost). */
  onReconnect(listener: () => void): () => void {
    this.#reconnectListeners.add(listener);
    return () => this.#reconnectListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channels.clear();
    const client = this.#client;
    this.#client = undefined;
    if (client === undefined) return;
    await (client.close?.() ?? client.quit?.())?.catch(() => undefined);
  }

  readonly #dispatch = (message: string, channel: string): void => {
    for (const listener of this.#channels.get(channel)?.listeners ?? []) {
      try {
        listener(message);
      } catch {
        // One broken listener must not starve the others.
      }
    }
  };

  #remove(channel: string, listener: (message: string) => void): void {
    const entry = this.#channels.get(channel);
    if (entry === undefined || !entry.listeners.delete(listener) || entry.listeners.size > 0) return;
    this.#channels.delete(channel);
    const client = this.#client;
    if (client?.isReady === true) client.unsubscribe(channel, this.#dispatch).catch((error: unknown) => this.#onError?.(error));
  }

  #connect(): Promise<RedisSubscriberClientLike> {
    if (this.#closed) return Promise.reject(this.#commands.unavailable('subscriber is closed'));
    if (this.#client?.isReady === true) return Promise.resolve(this.#client);
    this.#connecting ??= this.#open().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #open(): Promise<RedisSubscriberClientLike> {
    if (this.#client === undefined) {
      const client = this.#commands.client.duplicate();
      guardErrors(client, this.#onError);
      client.on('ready', () => {
        if (!this.#readyOnce) {
          this.#readyOnce = true;
          return;
        }
        for (const listener of this.#reconnectListeners) listener();
      });
      this.#client = client;
      await this.#timed(client.connect(), 'connect');
      return client;
    }
    const client = this.#client;
    // Reconnecting by itself: wait for it within the command timeout.
    const deadline = Date.now() + this.#commands.timeoutMs;
    while (!client.isReady) {
      if (Date.now() > deadline || this.#closed) throw this.#commands.unavailable('subscriber connection is down');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return client;
  }

  async #timed<T>(promise: Promise<T>, what: string): Promise<T> {
    const { timeoutMs } = this.#commands;
    try {
      return await withTimeout(promise, timeoutMs, () => this.#commands.unavailable(`did not answer ${what} within ${timeoutMs} ms`));
    } catch (error) {
      throw error instanceof StoreUnavailableError ? error : this.#commands.unavailable(`${what} failed (${error instanceof Error ? error.message : String(error)})`, error);
    }
  }
}

/** The subscriber a store was given, or one of its own that `release` closes. */
export function leaseSubscriber(
  client: RedisClientLike,
  options: RedisStoreOptions,
): { readonly subscriber: RedisSubscriber; readonly release: () => Promise<void> } {
  if (options.subscriber !== undefined) return { subscriber: options.subscriber, release: () => Promise.resolve() };
  const subscriber = new RedisSubscriber(client, options);
  return { subscriber, release: () => subscriber.close() };
}
