/**
 * `mcpkit/http`: Streamable HTTP for any ConnectionFactory (an McpServer).
 * createNodeHandler / listen for node:http, createFetchHandler for
 * Web-standard runtimes, the engine for other hosts, and the store contracts.
 */
export { createNodeHandler, listen } from './adapters/node.js';
export type { ListenOptions, McpHttpListener, NodeHandler, NodeHandlerOptions, StreamBufferOptions } from './adapters/node.js';
export { createFetchHandler } from './adapters/fetch.js';
export type { FetchHandler, FetchHandlerOptions } from './adapters/fetch.js';
export {
  createHttpEngine,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_BATCH_SIZE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_CLIENT,
  DEFAULT_MAX_REQUESTS_PER_SESSION,
  DEFAULT_MAX_STREAM_BUFFER_BYTES,
} from './transports/http/engine.js';
export { DEFAULT_MAX_INFLIGHT_BYTES_PER_CLIENT } from './transports/http/inflight.js';
export type { CloseOptions, HttpEngine } from './transports/http/engine.js';
export type { CorsOptions } from './transports/http/types.js';
export { SERVER_CARD_MEDIA_TYPE, SERVER_CARD_SCHEMA, type ServerCardOptions } from './transports/http/server-card.js';
export type {
  BodyResult,
  ChunkSink,
  HeaderMap,
  HttpAuthOptions,
  HttpEngineBaseOptions,
  HttpEngineOptions,
  HttpLimits,
  HttpSecurityOptions,
  HttpSessionOptions,
  HttpStateOptions,
  HttpRequest,
  HttpResponse,
  LegacySseOptions,
  ResponseMode,
  ResponseStream,
  ForwardedHeader,
  TrustProxy,
} from './transports/http/types.js';
export { LOOPBACK_HOSTS } from './transports/http/security.js';
export type { EventStore, EventStoreLimits, FollowEnd, MaybePromise, ReplayWriter, SessionStore, StreamFollow } from './stores/contracts.js';
export { MemoryEventStore, MemorySessionStore } from './stores/memory.js';
export type { MemoryEventStoreOptions, MemorySessionStoreOptions } from './stores/memory.js';
export { MemorySharedSessionStore, type MemorySharedSessionStoreOptions } from './stores/shared-memory.js';
export type { ClusterChannel, ClusterListener, ClusterMessage, SharedSession, SharedSessionStore } from './stores/shared-sessions.js';
export type { HttpClusterOptions } from './transports/http/types.js';
