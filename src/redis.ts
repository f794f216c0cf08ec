/**
 * `mcpkit/redis`: the shared stores that make several instances on one Redis
 * act as one server. Pass in a connected client (node-redis ≥ 6, typed
 * structurally: mcpkit never imports it). The root entry never imports this one.
 */
export { RedisNotificationBus } from './redis/bus.js';
export { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_PREFIX, RedisCommands, RedisScript, RedisSubscriber } from './redis/client.js';
export type { RedisClientLike, RedisCommandOptions, RedisMessageListener, RedisStoreOptions, RedisSubscriberClientLike } from './redis/client.js';
export { StoreUnavailableError } from './stores/errors.js';
export { DEFAULT_EVENT_IDLE_TTL_MS, RedisEventStore, type RedisEventStoreOptions } from './redis/event-store.js';
export { DEFAULT_TASK_LEASE_MS, RedisTaskStore, type RedisTaskStoreOptions } from './redis/task-store.js';
