/**
 * The minimal request/response abstraction the Streamable HTTP engine runs on.
 * Adapters (node:http, fetch, Express) translate to and from it and hold no
 * protocol rules of their own.
 */
import type { AuthOptions } from './auth/types.js';
import type { AuthInfo } from '../../protocol/connection.js';
import type { EventStore } from '../../stores/contracts.js';
import type { HttpRequest } from './wire.js';
import type { ClusterChannel, SharedSessionStore } from '../../stores/shared-sessions.js';
import type { ForwardedHeader, TrustProxy } from './trust-proxy.js';

export type { BodyParts, BodyResult, ChunkSink, HeaderMap, HttpRequest, HttpResponse, ResponseStream } from './wire.js';
export type { ForwardedHeader, TrustProxy } from './trust-proxy.js';

export type ResponseMode = 'auto' | 'json' | 'sse';

export interface LegacySseOptions {
  /** The path of the SSE stream (default '/sse'). */
  ssePath?: string;
  /** The path clients POST to (default '/messages'). */
  messagesPath?: string;
  /** Bytes of request bodies a session may have running at once (default 16 MiB); beyond it → 429. */
  maxInflightBytes?: number;
}

/** What every HTTP engine is given, whatever its state and authentication. */
export interface HttpEngineBaseOptions {
  /** Only this path is served as the MCP endpoint (default: any path). */
  path?: string;
  /**
   * How a request's answer is sent. 'auto' (default) answers JSON unless the
   * request emits a message (progress, log, server→client request) before its
   * result, in which case the response becomes an SSE stream at that moment.
   */
  responseMode?: ResponseMode;
  /** SSE comment sent on idle streams, in ms (default 25,000; 0 disables). */
  keepAliveMs?: number;
  /** What one request, session or client may make the engine hold (docs/limits.md). */
  limits?: HttpLimits;
  /** Which hosts, origins and proxies are believed (DNS rebinding, CORS, client addresses). */
  security?: HttpSecurityOptions;
  /** Also serve the deprecated HTTP+SSE transport of 2024-11-05 (default false). */
  legacySse?: boolean | LegacySseOptions;
  /**
   * Experimental: serve the MCP Server Card at `<path>/server-card` (docs/http.md), made
   * from this server's `server/discover` answer. Off by default.
   */
  serverCard?: ServerCardOptions;
}

export interface HttpLimits {
  /** Largest accepted request body in bytes (default 4 MiB) → 413. */
  maxBodyBytes?: number;
  /** Most concurrent sessions (default 10,000); initialize beyond it → 503. */
  maxSessions?: number;
  /**
   * Most concurrent sessions per client (default 100): per principal when
   * `authenticate` names one, else per remote address (IPv6 by /64); beyond it → 429.
   */
  maxSessionsPerClient?: number;
  /**
   * Requests one session may have running at once (default 100), on Streamable
   * HTTP and legacy SSE alike; a POST carrying another request → 429. Responses
   * and notifications are never refused.
   */
  maxRequestsPerSession?: number;
  /**
   * Request body bytes one client may have in flight (default 16 MiB): per principal,
   * else per remote address. A running request (a `subscriptions/listen` stream, a tool
   * waiting for input) keeps its parsed body; beyond the limit → 429.
   */
  maxInflightBytesPerClient?: number;
}

export interface HttpSecurityOptions {
  /** Host/Origin checks against DNS rebinding (default true). */
  dnsRebindingProtection?: boolean;
  /** Accepted Host values: `name` (any port) or `name:port`. Default: loopback names on the local port. */
  allowedHosts?: readonly string[];
  /** Accepted Origin values (exact). Default: `http://` + each accepted host. */
  allowedOrigins?: readonly string[];
  /**
   * Answer CORS preflights and let browser pages read answers (default off).
   * Only origins the DNS-rebinding check accepts get CORS headers (`allowedOrigins`).
   */
  cors?: boolean | CorsOptions;
  /**
   * Behind reverse proxies: take the client's address from `X-Forwarded-For` (or `Forwarded`, see
   * `forwardedHeader`) for quotas, `ctx.requestInfo` and telemetry, walking from the socket's peer to the
   * first untrusted hop, as Express and Fastify do (docs/http.md#behind-a-reverse-proxy). Off by default:
   * a hop count (`1` for one balancer), or the proxies' addresses and CIDR ranges (`['10.0.0.0/8']`,
   * `loopback`, `linklocal`, `uniquelocal`; a comma-separated string too). A header from a peer that is
   * not trusted is ignored.
   */
  trustProxy?: TrustProxy | undefined;
  /** The header the trusted proxies write: `x-forwarded-for` (default) or `forwarded` (RFC 7239). Only that one is read. */
  forwardedHeader?: ForwardedHeader;
}

interface SessionStreams {
  /** Event log for resumable streams; default: a bounded memory store. `false` disables resumability. */
  eventStore?: EventStore | false;
}

/**
 * Sessions live in this process (with idle expiry), or, with `cluster`, as records shared by
 * several instances (docs/scaling.md) — whose store sets the idle expiry itself.
 */
export type HttpSessionOptions =
  | (SessionStreams & {
      /** Idle time before a session expires (default 30 minutes). */
      idleTimeoutMs?: number;
      cluster?: never;
    })
  | (SessionStreams & {
      idleTimeoutMs?: never;
      /**
       * Run as one of several instances sharing sessions: sessions as records in a shared
       * store, a channel between instances. `createRedisState()` (mcpkit/redis) builds it.
       */
      cluster: HttpClusterOptions;
    });

/** With sessions (the default), or stateless: one shared connection, nothing to resume or share. */
export type HttpStateOptions =
  | { /** Serve without sessions through one shared connection (default false). */ stateless?: false; sessions?: HttpSessionOptions }
  | { stateless: true; sessions?: never };

/** Who the caller is: the OAuth resource server (`auth`), or your own check (`authenticate`), not both. */
export type HttpAuthOptions =
  | {
      /**
       * OAuth 2.1 resource server (docs/auth.md): protected resource metadata, bearer
       * token verification, 401/403 challenges, per-tool scopes.
       */
      auth?: AuthOptions;
      authenticate?: never;
    }
  | {
      auth?: never;
      /** Identifies the caller; the result reaches handlers as `authInfo`. Throwing answers 401. */
      authenticate?: (request: HttpRequest) => AuthInfo | undefined | Promise<AuthInfo | undefined>;
    };

/** The Streamable HTTP engine's options: grouped by concern, with exclusive choices as unions TypeScript checks. */
export type HttpEngineOptions = HttpEngineBaseOptions & HttpStateOptions & HttpAuthOptions;

export interface CorsOptions {
  /** How long browsers may cache a preflight answer, in seconds (default 600). */
  maxAgeSeconds?: number;
}

/** The experimental MCP Server Card (`serverCard`, docs/http.md). */
export interface ServerCardOptions {
  /** The server's name in reverse-DNS form, as in the MCP Registry: `io.github.you/weather`. */
  name: string;
  /**
   * The public URL clients connect to (listed in `remotes`). `listen()` fills in the URL it
   * serves; behind a proxy, give the public one. Without it the card lists no remote.
   */
  url?: string;
  /** Where the source is (`{ url, source: 'github' }`), for people who want to inspect it. */
  repository?: { url: string; source: string; id?: string; subfolder?: string };
  /** `Cache-Control: public, max-age=…` in seconds (default 3600, as the proposal suggests). */
  maxAgeSeconds?: number;
}

/** What the engine needs to act as one of several instances (`createRedisState` builds it). */
export interface HttpClusterOptions {
  /** Sessions as records, shared by every instance. */
  sessions: SharedSessionStore;
  /** Messages between instances; its `instanceId` names this one. */
  channel: ClusterChannel;
}
