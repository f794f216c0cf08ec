/**
 * One call that makes an instance one of several on a Redis: the options for
 * `new McpServer()` (`server`) and for the HTTP server (`http`).
 *
 *   const state = await createRedisState({ client, stateKeys: [process.env.MCPKIT_STATE_SECRET!] });
 *   const server = new McpServer({ name: 'app', version: '1.0.0', ...state.server });
 *   await listen(server, { port: 3000, ...state.http });
 */
import type { NotificationBus } from '../stores/bus.js';
import type { TaskChannel } from '../stores/task-channel.js';
import type { TaskStore } from '../stores/tasks.js';
import type { HttpClusterOptions } from '../transports/http/types.js';
import { validateStateKeys, type StateKey } from '../protocol/request/request-state.js';
import { RedisNotificationBus } from './bus.js';
import { RedisSubscriber, type RedisClientLike, type RedisStoreOptions } from './client.js';
import { RedisClusterChannel } from './cluster.js';
import { RedisEventStore, type RedisEventStoreOptions } from './event-store.js';
import { RedisSessionStore } from './session-store.js';
import { RedisTaskChannel } from './task-channel.js';
import { RedisTaskStore, type RedisTaskStoreOptions } from './task-store.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export interface RedisStateOptions extends Omit<RedisStoreOptions, 'subscriber'> {
  /** A connected node-redis client (`await createClient({ url }).connect()`). */
  client: RedisClientLike;
  /**
   * The `requestState.keys` every instance shares (each at least 32 bytes; the
   * first signs, all verify), so a 2026-07-28 retry may land on any instance.
   */
  stateKeys: readonly StateKey[];
  /** This instance's name in the cluster (default: random). */
  instanceId?: string;
  /** Idle time before a legacy session expires (ms, default 30 minutes). */
  sessionIdleTimeoutMs?: number;
  /** The shared task store's limits, `ttlMs` and lease (`leaseMs`, default 30 s). */
  tasks?: Omit<RedisTaskStoreOptions, keyof RedisStoreOptions | 'instanceId'>;
  /** An instance silent this long counts as dead: requests it was running fail for clients that resume elsewhere (ms, default 10,000). */
  instanceTtlMs?: number;
  /** Bounds of the shared SSE event log (RedisEventStore). */
  events?: Omit<RedisEventStoreOptions, keyof RedisStoreOptions>;
}

export interface RedisState {
  readonly instanceId: string;
  /** Spread into `new McpServer({ ... })`. */
  readonly server: {
    bus: NotificationBus;
    requestState: { keys: readonly StateKey[] };
    tasks: { store: TaskStore; channel: TaskChannel };
  };
  /** Spread into `listen()` / `createNodeHandler()` options (its `sessions` group). */
  readonly http: { sessions: { cluster: HttpClusterOptions; eventStore: RedisEventStore } };
  /** Stops listening (the client stays yours to close). */
  close(): Promise<void>;
}

const REDIS_STATE_KEYS = keysOf<RedisStateOptions>({ client: true, stateKeys: true, instanceId: true, sessionIdleTimeoutMs: true, tasks: true, instanceTtlMs: true, events: true, prefix: true, commandTimeoutMs: true, retryAfterSeconds: true, onError: true });
const TASKS_KEYS = keysOf<NonNullable<RedisStateOptions['tasks']>>({ leaseMs: true, renewEveryMs: true, ttlMs: true, pollIntervalMs: true, maxTasks: true, maxTasksPerOwner: true, maxBytes: true, maxBytesPerOwner: true, maxTaskBytes: true });
const EVENTS_KEYS = keysOf<NonNullable<RedisStateOptions['events']>>({ idleTtlMs: true, maxBytesPerStream: true, maxBytesPerOwner: true, maxBytesPerClient: true, maxBytes: true, maxEventsPerStream: true, maxEvents: true });
/** The environment variable docs/scaling.md reads the shared key from. */
const STATE_KEY_VARIABLE = 'MCPKIT_STATE_SECRET';

/**
 * A key read from an unset variable (`process.env.X!`) arrives as undefined or '': say that
 * it is missing and where the docs get it, before the generic type check does.
 */
function checkKeysPresent(stateKeys: readonly StateKey[]): void {
  if (!Array.isArray(stateKeys)) throw new TypeError(`createRedisState: stateKeys must be an array of keys (got ${typeof stateKeys}), e.g. [process.env.${STATE_KEY_VARIABLE}]`);
  stateKeys.forEach((key: StateKey | undefined | null, index) => {
    if (key === undefined || key === null || key === '') {
      throw new TypeError(
        `createRedisState: stateKeys[${index}] is missing (${key === '' ? 'an empty string' : String(key)}): is its environment variable set? ` +
          `The docs read the key from ${STATE_KEY_VARIABLE}: give every instance the same secret of at least 32 bytes (e.g. openssl rand -base64 32).`,
      );
    }
  });
}

export async function createRedisState(options: RedisStateOptions): Promise<RedisState> {
  refuseUnknownKeys(options, REDIS_STATE_KEYS, 'createRedisState() options');
  refuseUnknownKeys(options?.tasks, TASKS_KEYS, 'the tasks option of createRedisState()');
  refuseUnknownKeys(options?.events, EVENTS_KEYS, 'the events option of createRedisState()');
  const { client, stateKeys, instanceId, sessionIdleTimeoutMs, tasks, instanceTtlMs, events, ...storeOptions } = options;
  checkKeysPresent(stateKeys);
  validateStateKeys(stateKeys);
  // One subscriber connection for the bus, the cluster channel, the task channel and the followers of the event log.
  const subscriber = new RedisSubscriber(client, storeOptions);
  const shared = { ...storeOptions, subscriber };
  const bus = new RedisNotificationBus(client, shared);
  const channel = new RedisClusterChannel(client, { ...shared, ...(instanceId === undefined ? {} : { instanceId }), ...(instanceTtlMs === undefined ? {} : { instanceTtlMs }) });
  // Tasks held by this instance carry its name, so input and cancellation find their way here.
  const taskStore = new RedisTaskStore(client, { ...storeOptions, ...tasks, instanceId: channel.instanceId });
  const taskChannel = new RedisTaskChannel(client, { ...shared, instanceId: channel.instanceId, holderOf: (taskId) => taskStore.holderOf(taskId) });
  // Any instance resumes any stream: replays it, then follows it while its request runs elsewhere.
  const eventStore = new RedisEventStore(client, { ...events, ...shared });
  const sessions = new RedisSessionStore(client, { ...storeOptions, ...(sessionIdleTimeoutMs === undefined ? {} : { idleTimeoutMs: sessionIdleTimeoutMs }) });
  // Subscribed before the first request, so nothing published meanwhile is missed.
  await bus.ready();
  return {
    instanceId: channel.instanceId,
    server: { bus, requestState: { keys: stateKeys }, tasks: { store: taskStore, channel: taskChannel } },
    http: { sessions: { cluster: { sessions, channel }, eventStore } },
    close: () => {
      taskStore.close();
      return subscriber.close();
    },
  };
}
