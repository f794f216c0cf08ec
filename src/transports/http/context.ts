/** What the engine's request handlers share: resolved options and live state. */
import type { AuthGate } from './auth/gate.js';
import type { AuthInfo, ConnectionFactory, McpConnection } from '../../protocol/connection.js';
import type { EventStore } from '../../stores/contracts.js';
import type { Linked } from '../../util/live-list.js';
import type { InflightBytes } from './inflight.js';
import type { Cors } from './cors.js';
import type { HttpSession, SessionBackend } from './sessions.js';
import type { HttpRequest, ResponseMode } from './types.js';

/** Where a POST's messages are handled. */
export interface CallTarget {
  connection: McpConnection;
  /** The session the request belongs to (stateful requests only). */
  session: HttpSession | undefined;
  /** A 2026-07-28 request: errors map to HTTP statuses, streams are not resumable. */
  modern: boolean;
  /** This request is the initialize that opened `session`. */
  opensSession: boolean;
}

/** A request being handled, as shutdown sees it. */
export interface InflightCall extends Linked<InflightCall> {
  /** Aborts the handler and ends the response. */
  cancel(reason: string): void;
}

export interface EngineContext {
  readonly factory: ConnectionFactory;
  readonly responseMode: ResponseMode;
  readonly stateless: boolean;
  readonly maxBodyBytes: number;
  readonly maxBatchSize: number;
  readonly maxSessions: number;
  readonly maxRequestsPerSession: number;
  readonly keepAliveMs: number;
  readonly eventStore: EventStore | undefined;
  /** The session backend: local (this process), or shared by several instances (the `cluster` option). */
  readonly sessions: SessionBackend;
  /** Cross-origin answers (the `cors` option). */
  readonly cors: Cors | undefined;
  /** Request bytes in flight per client (maxInflightBytesPerClient). */
  readonly inflight: InflightBytes;
  readonly protocolVersions: readonly string[];
  readonly authenticate: ((request: HttpRequest) => AuthInfo | undefined | Promise<AuthInfo | undefined>) | undefined;
  /** The `auth` option's checks (OAuth resource server), when configured. */
  readonly auth: AuthGate | undefined;
  /**
   * The connection serving requests without a session, opened on first use:
   * one for modern (2026-07-28) requests and one for legacy stateless ones, so
   * a legacy `initialize` never changes how modern requests are read.
   */
  sharedConnection(modern: boolean): McpConnection;
  /** The call target of requests without a session (one object per era, made once). */
  sharedTarget(modern: boolean): CallTarget;
  track(call: InflightCall): void;
  untrack(call: InflightCall): void;
  readonly closing: boolean;
}
