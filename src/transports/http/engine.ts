/**
 * The Streamable HTTP engine: protocol-agnostic request handling written once
 * over HttpRequest/HttpResponse. Adapters translate; the ConnectionFactory (an
 * McpServer) does every JSON-RPC and MCP rule.
 */
import { createAuthGate, type AuthGate } from './auth/gate.js';
import { ErrorCode, isJsonRpcProtocolError } from '../../jsonrpc/errors.js';
import type { AuthInfo, ConnectionFactory, McpConnection } from '../../protocol/connection.js';
import type { EventStore } from '../../stores/contracts.js';
import { MemoryEventStore, MemorySessionStore } from '../../stores/memory.js';
import type { CallTarget } from './context.js';
import type { EngineContext, InflightCall } from './context.js';
import { failedResponse, httpError, methodNotAllowed, missingSession, sessionNotFound, shuttingDown } from './errors.js';
import { ClusterSessionRegistry } from './cluster.js';
import { handleGet } from './get.js';
import { DEFAULT_MAX_INFLIGHT_BYTES_PER_CLIENT, InflightBytes } from './inflight.js';
import { LiveList } from '../../util/live-list.js';
import { DEFAULT_PROTOCOL_VERSIONS } from './headers.js';
import { LegacySseEndpoint } from './legacy-sse.js';
import { checkEngineKeys, positive } from './options.js';
import { DEFAULT_MAX_BATCH_SIZE } from '../../protocol/scopes/options.js';
import { handlePost } from './post.js';
import { createCors, type Cors } from './cors.js';
import { createRebindingGuard, type RequestGuard } from './security.js';
import { checkServerCardOptions, createServerCardRoute } from './server-card.js';
import { reporterFor, SessionRegistry, type HttpSession, type SessionBackend } from './sessions.js';
import { createTrustProxy, type ClientAddressResolver } from './trust-proxy.js';
import type { HttpEngineOptions, HttpRequest, HttpResponse, ResponseMode } from './types.js';

export interface CloseOptions {
  /** How long in-flight requests may run before they are aborted (default 5,000 ms). */
  graceMs?: number;
}

export interface HttpEngine {
  /** `respond` as a promise (the public edge: the fetch adapter, your own adapter). */
  handle(request: HttpRequest): Promise<HttpResponse>;
  /**
   * @internal The one request handler: the answer itself when nothing waited but the body
   * (a plain POST to a synchronous handler is answered in the tick its body ended), else a
   * promise. Never throws or rejects.
   */
  respond(request: HttpRequest): HttpResponse | Promise<HttpResponse>;
  /** Stops accepting (503), lets in-flight requests finish within the grace period, then aborts them and ends every session. */
  close(options?: CloseOptions): Promise<void>;
  readonly closed: boolean;
  /** The canonical resource URL when `auth` is configured. */
  readonly resource: string | undefined;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export { DEFAULT_MAX_BATCH_SIZE } from '../../protocol/scopes/options.js';
export const DEFAULT_MAX_SESSIONS = 10_000;
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 100;
export const DEFAULT_MAX_REQUESTS_PER_SESSION = 100;
export const DEFAULT_KEEP_ALIVE_MS = 25_000;
export const DEFAULT_MAX_STREAM_BUFFER_BYTES = 8 * 1024 * 1024;

export function createHttpEngine(factory: ConnectionFactory, options: HttpEngineOptions = {}): HttpEngine {
  checkEngineKeys(options, 'createHttpEngine() options');
  return new Engine(factory, options);
}

class Engine implements HttpEngine, EngineContext {
  readonly responseMode: ResponseMode;
  readonly stateless: boolean;
  readonly maxBodyBytes: number;
  readonly maxBatchSize: number;
  readonly maxSessions: number;
  readonly maxRequestsPerSession: number;
  readonly keepAliveMs: number;
  readonly eventStore: EventStore | undefined;
  readonly sessions: SessionBackend;
  readonly inflight: InflightBytes;
  readonly protocolVersions: readonly string[];
  readonly authenticate: HttpEngineOptions['authenticate'];
  readonly auth: AuthGate | undefined;
  closing = false;

  private readonly path: string | undefined;
  private readonly clientAddress: ClientAddressResolver | undefined;
  private readonly guard: RequestGuard | undefined;
  readonly cors: Cors | undefined;
  private readonly legacy: LegacySseEndpoint | undefined;
  private readonly card: ((request: HttpRequest) => Promise<HttpResponse> | undefined) | undefined;
  private sharedModern: McpConnection | undefined;
  private sharedLegacy: McpConnection | undefined;
  private modernTarget: CallTarget | undefined;
  private legacyTarget: CallTarget | undefined;
  private readonly calls = new LiveList<InflightCall>();
  private idle: (() => void) | undefined;

  constructor(
    readonly factory: ConnectionFactory,
    options: HttpEngineOptions,
  ) {
    const limits = options.limits ?? {};
    const security = options.security ?? {};
    this.responseMode = options.responseMode ?? 'auto';
    this.stateless = options.stateless ?? false;
    this.maxBodyBytes = positive(limits.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'limits.maxBodyBytes');
    // The server owns both (its limits.maxBatchSize and protocolVersions).
    this.maxBatchSize = positive(factory.maxBatchSize, DEFAULT_MAX_BATCH_SIZE, 'limits.maxBatchSize');
    this.maxSessions = positive(limits.maxSessions, DEFAULT_MAX_SESSIONS, 'limits.maxSessions');
    this.maxRequestsPerSession = positive(limits.maxRequestsPerSession, DEFAULT_MAX_REQUESTS_PER_SESSION, 'limits.maxRequestsPerSession');
    this.keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
    this.protocolVersions = factory.protocolVersions ?? DEFAULT_PROTOCOL_VERSIONS;
    this.authenticate = options.authenticate;
    this.auth = options.auth === undefined ? undefined : createAuthGate(options.auth, options.path, reporterFor(factory.logger));
    this.path = options.path;
    // Resumability needs sessions: stateless streams cannot be resumed (checkEngineKeys refused `sessions` with `stateless`).
    const sessions = options.sessions ?? {};
    this.eventStore =
      sessions.eventStore === false || this.stateless ? undefined : (sessions.eventStore ?? new MemoryEventStore());
    const perClient = positive(limits.maxSessionsPerClient, DEFAULT_MAX_SESSIONS_PER_CLIENT, 'limits.maxSessionsPerClient');
    const cluster = sessions.cluster;
    const report = reporterFor(factory.logger);
    if (cluster !== undefined && factory.hasSharedStateKey?.() === false) {
      console.warn(
        'mcpkit: this HTTP server runs as one of several instances (cluster) but requestState is signed with a random per-process key: ' +
          'a 2026-07-28 multi round-trip request retried on another instance will be refused. Give every instance the same requestState.keys.',
      );
    }
    this.sessions =
      cluster === undefined
        ? // Live sessions are objects of this process: an internal map (with idle expiry), never a user's store.
          new SessionRegistry(new MemorySessionStore<HttpSession>(sessions.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: sessions.idleTimeoutMs }), this.maxSessions, perClient, this.eventStore, report)
        : new ClusterSessionRegistry(new MemorySessionStore<HttpSession>({ idleTimeoutMs: cluster.sessions.idleTimeoutMs }), this.maxSessions, perClient, this.eventStore, factory, cluster, report);
    this.inflight = new InflightBytes(positive(limits.maxInflightBytesPerClient, DEFAULT_MAX_INFLIGHT_BYTES_PER_CLIENT, 'limits.maxInflightBytesPerClient'));
    this.guard = createRebindingGuard(security);
    this.clientAddress = createTrustProxy(security.trustProxy, security.forwardedHeader);
    this.cors = createCors(security.cors);
    if (options.serverCard !== undefined) checkServerCardOptions(options.serverCard, factory);
    this.card = options.serverCard === undefined ? undefined : createServerCardRoute(options.serverCard, options.path, () => this.sharedConnection(true));
    const legacy = options.legacySse;
    this.legacy = legacy === undefined || legacy === false ? undefined : new LegacySseEndpoint(this, legacy === true ? {} : legacy);
  }

  get closed(): boolean {
    return this.closing;
  }

  get resource(): string | undefined {
    return this.auth?.resource;
  }

  handle(request: HttpRequest): Promise<HttpResponse> {
    return Promise.resolve(this.respond(request));
  }

  respond(request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    try {
      // Before anything reads the address: quotas, ctx.requestInfo, telemetry.
      this.clientAddress?.(request);
      const early = this.early(request);
      if (early !== undefined) return early instanceof Promise ? early.then(undefined, (error: unknown) => failedResponse(error)) : early;
      if (request.method === 'POST') {
        // Both POST endpoints run the admission steps (admission.ts): closing, CORS and auth included.
        if (this.legacy?.ownsPost(request) === true) return this.legacy.post(request);
        if (this.path === undefined || request.path === this.path) return handlePost(this, request);
      }
      return this.withCors(request);
    } catch (error) {
      return failedResponse(error);
    }
  }

  /** What is answered before any other work: auth metadata, the server card, a DNS-rebinding attempt. */
  private early(request: HttpRequest): HttpResponse | Promise<HttpResponse> | undefined {
    // Public, cross-origin and cacheable: answered before the Host/Origin checks.
    const metadata = this.auth?.metadata(request);
    if (metadata !== undefined) return metadata;
    const card = this.card?.(request);
    if (card !== undefined) return card;
    // Before any other work: a rebinding attempt learns nothing and costs nothing.
    return this.guard?.(request);
  }

  private withCors(request: HttpRequest): Promise<HttpResponse> {
    const origin = this.cors === undefined ? undefined : request.headers['origin'];
    if (origin === undefined) return this.serve(request);
    // The guard accepted this Origin, so CORS may let the page read the answer.
    const cors = this.cors!;
    if (request.method === 'OPTIONS') return Promise.resolve(cors.preflight(request, origin));
    return this.serve(request).then((response) => cors.decorate(response, origin));
  }

  private async serve(request: HttpRequest): Promise<HttpResponse> {
    try {
      if (this.closing) return shuttingDown();

      let authInfo: AuthInfo | undefined;
      if (this.auth !== undefined) {
        const checked = await this.auth.authenticate(request);
        if (checked.response !== undefined) return checked.response;
        authInfo = checked.authInfo;
      } else if (this.authenticate !== undefined) {
        try {
          authInfo = await this.authenticate(request);
        } catch (error) {
          const message = isJsonRpcProtocolError(error) ? error.message : 'Unauthorized: the request carries no valid credentials';
          return httpError(401, ErrorCode.InvalidRequest, message);
        }
      }

      const legacy = this.legacy?.route(request, authInfo);
      if (legacy !== undefined) return await legacy;
      if (this.path !== undefined && request.path !== this.path) {
        return httpError(404, ErrorCode.InvalidRequest, `Not found: the MCP endpoint is ${this.path}`);
      }
      switch (request.method) {
        case 'POST':
          // Reached only off the MCP path (404 above): handlePost is answered from respond().
          return await handlePost(this, request);
        case 'GET':
          return await handleGet(this, request, authInfo);
        case 'DELETE':
          return await this.deleteSession(request, authInfo);
        default:
          return methodNotAllowed(request.method, this.stateless ? 'POST' : 'GET, POST, DELETE');
      }
    } catch (error) {
      // Store or adapter failures: never a stack trace on the wire.
      return failedResponse(error);
    }
  }

  private async deleteSession(request: HttpRequest, authInfo: AuthInfo | undefined): Promise<HttpResponse> {
    if (this.stateless) return methodNotAllowed('DELETE', 'POST');
    const id = request.headers['mcp-session-id'];
    if (id === undefined) return missingSession();
    const session = await this.sessions.get(id, authInfo);
    if (session === undefined || session.kind !== 'streamable') return sessionNotFound();
    await this.sessions.end(session, 'session ended by the client');
    return { status: 204, headers: {} };
  }

  sharedConnection(modern: boolean): McpConnection {
    // Nothing is allocated per request: every stateless request of an era shares one connection.
    if (modern) return (this.sharedModern ??= this.factory.openConnection({ send: ignore, stateless: true }));
    return (this.sharedLegacy ??= this.factory.openConnection({ send: ignore, stateless: true }));
  }

  sharedTarget(modern: boolean): CallTarget {
    if (modern) return (this.modernTarget ??= { connection: this.sharedConnection(true), session: undefined, modern: true, opensSession: false });
    return (this.legacyTarget ??= { connection: this.sharedConnection(false), session: undefined, modern: false, opensSession: false });
  }

  track(call: InflightCall): void {
    this.calls.add(call);
  }

  untrack(call: InflightCall): void {
    this.calls.delete(call);
    if (this.calls.size === 0) this.idle?.();
  }

  async close(options: CloseOptions = {}): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    // Called from a handler before its first await, close() runs before that call is tracked (PostCall.run
    // tracks a call once its handler returned a promise): one microtask later it is, and gets its grace.
    await Promise.resolve();
    const graceMs = options.graceMs ?? 5_000;
    if (this.calls.size > 0 && graceMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    for (const call of this.calls) call.cancel('server shutting down');
    await this.sessions.closeAll('server shutting down');
    this.sharedModern?.close('server shutting down');
    this.sharedLegacy?.close('server shutting down');
  }
}

/** Stateless connections have nowhere to send unsolicited messages. */
const ignore = (): void => undefined;
