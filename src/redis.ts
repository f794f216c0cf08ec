/**
 * `mcpkit/redis`: the shared stores that make several instances on one Redis
 * act as one server. Pass in a connected client (node-redis ≥ 6, typed
 * structurally: mcpkit never imports it; `fromIoredis` adapts an ioredis
 * client). The root entry never imports this one.
 */
export { RedisNotificationBus } from './redis/bus.js';
export { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_PREFIX, RedisCommands, RedisScript, RedisSubscriber } from './redis/client.js';
export type { RedisClientLike, RedisCommandOptions, RedisMessageListener, RedisStoreOptions, RedisSubscriberClientLike } from './redis/client.js';
export { DEFAULT_EVENT_IDLE_TTL_MS, RedisEventStore, type RedisEventStoreOptions } from './redis/event-store.js';
export { DEFAULT_TASK_LEASE_MS, RedisTaskStore, type RedisTaskStoreOptions } from './redis/task-store.js';
export { RedisTaskChannel, type RedisTaskChannelOptions } from './redis/task-channel.js';
export { createRedisState } from './redis/setup.js';
export type { RedisState, RedisStateOptions } from './redis/setup.js';
export { RedisSessionStore, DEFAULT_SESSION_IDLE_MS } from './redis/session-store.js';
export type { RedisSessionStoreOptions } from './redis/session-store.js';
export { DEFAULT_INSTANCE_TTL_MS, RedisClusterChannel } from './redis/cluster.js';
export { fromIoredis, type IoredisLike } from './redis/ioredis.js';
export type { RedisClusterChannelOptions } from './redis/cluster.js';
