/** Streamable HTTP sessions (2025-03-26 … 2025-11-25) and the registry that bounds them. */
import type { JsonRpcMessage } from '../../jsonrpc/message.js';
import type { AuthInfo, ConnectionFactory, McpConnection } from '../../protocol/connection.js';
import { principalOf, quotaOwnerOf, samePrincipal } from '../../protocol/request/principal.js';
import type { EventLog, EventStore, SessionStore } from '../../stores/contracts.js';
import { clientAddressKey } from './client-address.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import type { JsonRpcId } from '../../jsonrpc/message.js';
import { httpError } from './errors.js';
import { mintSessionId, randomToken } from './headers.js';
import { EventStream } from './sse.js';
import type { HttpRequest, HttpResponse } from './types.js';

export type SessionKind = 'streamable' | 'legacy-sse';

/** A session is the owner of its streams' events (its id is the owner key). */
/** Logs a failure no request can be told about: what failed, and the error. */
export type ReportFailure = (what: string, error: unknown) => void;

/** A ReportFailure over a logger; a factory without one reports to stderr. */
export function reporterFor(logger: { error?(message: string, ...args: unknown[]): void } | undefined): ReportFailure {
  return (what, error) => (logger?.error === undefined ? console.error(`mcpkit: ${what}`, error) : logger.error(`mcpkit: ${what}`, error));
}

export class HttpSession implements EventLog {
  /** Prefix of this session's stream ids, so a Last-Event-ID can be tied to its session (made on first use). */
  private prefix: string | undefined;
  /** Response streams of requests still running (resumable); created on first use. */
  private liveStreams: Map<string, EventStream> | undefined;
  /** Requests being handled. */
  inflight = 0;
  closed = false;
  private standaloneStream: EventStream | undefined;
  private streamCounter = 0;
  private connectionRef: McpConnection | undefined;
  private reporter: ((error: unknown) => void) | undefined;

  constructor(
    readonly id: string,
    readonly kind: SessionKind,
    /** Its client: the quota it counts against, its principal and the event store (shared, so a session holds one pointer). */
    readonly client: SessionClient,
    /** Where a failure of the stores behind this session is reported (the server's logger). */
    readonly report: ReportFailure,
  ) {}

  /** `principalOf(authInfo)` at creation: only the same principal reaches this session. */
  get principal(): string | undefined {
    return this.client.principal;
  }

  get connection(): McpConnection {
    if (this.connectionRef === undefined) throw new Error('session connection not opened');
    return this.connectionRef;
  }

  set connection(connection: McpConnection) {
    this.connectionRef = connection;
  }

  get streamPrefix(): string {
    return (this.prefix ??= [randomToken(6), '.'].join(''));
  }

  get live(): Map<string, EventStream> {
    return (this.liveStreams ??= new Map());
  }

  /** A new stream's id, unique in this session (the backend may add where it was made: `SessionBackend.streamId`). */
  localStreamId(): string {
    return this.streamPrefix + (this.streamCounter++).toString(36);
  }

  /** For this session's SSE streams: a failed event-store write is logged, not swallowed (made on first use). */
  get storeErrorReporter(): (error: unknown) => void {
    return (this.reporter ??= (error: unknown): void => this.report(`recording an SSE event of session ${this.id} in the event store failed (it was sent live but cannot be replayed)`, error));
  }

  /** Where this session's resumable streams record their events; undefined without an event store. */

  get eventLog(): EventLog | undefined {
    return this.client.events === undefined ? undefined : this;
  }

  append(streamId: string, message?: JsonRpcMessage): string | Promise<string> {
    // After the session ended its events were released; recording more would leak them.
    const store = this.client.events;
    if (this.closed || store === undefined) return `${streamId}:-`;
    return store.append(this.id, streamId, message, this.client.owner);
  }

  /** The session's standalone stream (the GET stream, or the legacy SSE stream), named `id` (`SessionBackend.standaloneId`) when first made. */
  standalone(id: string): EventStream {
    this.standaloneStream ??= new EventStream(id, this.kind === 'streamable' ? this.eventLog : undefined, this.storeErrorReporter);
    return this.standaloneStream;
  }

  /** Messages not tied to a request go to the standalone stream; with none open they are dropped. */
  send(message: JsonRpcMessage): void {
    if (this.closed) return;
    const stream = this.standaloneStream;
    // Once a client has opened the stream it can resume it, so record while it is away.
    if (stream !== undefined && (stream.attached || stream.resumable)) stream.send(message);
  }

  /** In use: a request running, a stream open. Busy sessions do not expire. */
  get busy(): boolean {
    return this.inflight > 0 || (this.liveStreams?.size ?? 0) > 0 || this.standaloneStream?.attached === true;
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.connectionRef?.close(reason);
    for (const stream of this.liveStreams?.values() ?? []) stream.abort();
    this.liveStreams?.clear();
    this.standaloneStream?.abort();
  }
}

/** One client (principal, else client address) as its sessions see it; they hold it, not copies. */
export interface SessionClient {
  /** The quota owner (`quotaOwnerOf`). */
  readonly owner: string;
  /** The principal its sessions are bound to (undefined: unauthenticated). */
  readonly principal: string | undefined;
  /** Where its sessions' streams record events (the engine's store). */
  readonly events: EventStore | undefined;
  /** Its live sessions. */
  sessions: number;
}

/** Why `open` refused a session. */
export type SessionRefusal = 'server-full' | 'client-full';

/**
 * The session-backend seam: everything the Streamable HTTP and legacy SSE paths
 * ask of sessions, called unconditionally. `SessionRegistry` is the local
 * backend (one process: the cross-instance calls do nothing);
 * `ClusterSessionRegistry` (cluster.ts) is the backend of several instances
 * sharing their sessions (the `cluster` option). Nothing outside those two
 * files asks which one it is.
 */
export interface SessionBackend {
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  readonly report: ReportFailure;
  /** Opens a session bound to the caller's principal, or says why not (quotas). */
  open(kind: SessionKind, factory: ConnectionFactory, request: HttpRequest, authInfo: AuthInfo | undefined): Promise<HttpSession | SessionRefusal>;
  /** The session `id` as `authInfo` may see it (another principal's is unknown). Synchronous when the store is. */
  get(id: string, authInfo: AuthInfo | undefined): HttpSession | undefined | Promise<HttpSession | undefined>;
  touch(session: HttpSession): void;
  end(session: HttpSession, reason: string): Promise<void>;
  closeAll(reason: string): Promise<void>;
  /**
   * A POSTed payload of a session: the client answers and cancellations that
   * belong to another instance travel there. An answer ends the POST (202, or
   * 410 when that instance is gone); otherwise `post.payload` is what is left
   * to handle here. Local: nothing to intercept.
   */
  intercept(post: InterceptedPost): HttpResponse | undefined | Promise<HttpResponse | undefined>;
  /** Tags the server→client requests of one call with where their answers must go; local: undefined (untouched). */
  outbound(session: HttpSession): ((message: JsonRpcMessage) => JsonRpcMessage) | undefined;
  /** A GET stream of `session` opens here (resuming `lastEventId`, if given): messages for it must come here. Local: nothing to do. */
  holdStream(session: HttpSession, lastEventId: string | undefined): void | Promise<void>;
  /** The id of a new stream answering `requestId` in `session`; a cluster writes the instance and request into it. */
  streamId(session: HttpSession, requestId: JsonRpcId | undefined): string;
  /** The id of `session`'s standalone stream; a cluster names it the same on every instance, so a GET stream resumed elsewhere is still the standalone one. */
  standaloneId(session: HttpSession): string;
  /** Resumes a stream this instance does not write (another instance does); undefined: resume it here. */
  resumeRemote(session: HttpSession, lastEventId: string, request: HttpRequest, keepAliveMs: number): Promise<HttpResponse | undefined> | undefined;
}

/** What `intercept` reads and rewrites of a POST being admitted (admission.ts). */
export interface InterceptedPost {
  readonly session: HttpSession | undefined;
  payload: unknown;
  /** Recomputes what admission knows of the payload after `payload` changed. */
  reshape(): void;
}

/** Live sessions over a SessionStore, with a global cap and a cap per client: the local session backend. */
export class SessionRegistry implements SessionBackend {
  /** Live sessions per quota owner (principal, else client address). */
  private readonly perClient = new Map<string, SessionClient>();

  constructor(
    protected readonly store: SessionStore<HttpSession>,
    readonly maxSessions: number,
    readonly maxSessionsPerClient: number,
    protected readonly eventStore: EventStore | undefined,
    /** The server's logger, for store failures no request can carry. */
    readonly report: ReportFailure = reporterFor(undefined),
  ) {
    store.onExpire((_id, session) => {
      if (session.busy) return false;
      this.retire(session, 'session expired');
      return true;
    });
  }

  /**
   * The session `id` as `authInfo` may see it: a session bound to another
   * principal is as unknown as one that never existed (no existence leak).
   */
  get(id: string, authInfo: AuthInfo | undefined): HttpSession | undefined | Promise<HttpSession | undefined> {
    // Synchronous with a synchronous store: no promise per request for the in-memory one.
    const found = this.store.get(id);
    if (found instanceof Promise) return found.then((session) => visible(session, authInfo));
    return visible(found, authInfo);
  }

  touch(session: HttpSession): void {
    const touched = this.store.touch(session.id);
    if (touched instanceof Promise) touched.catch((error: unknown) => this.report(`touching session ${session.id} in the session store failed (it may expire early)`, error));
  }

  /**
   * Opens a session bound to the caller's principal, with its own protocol
   * connection; refuses when the server or this client holds its maximum (we
   * refuse rather than evict: evicting would cut off a client that is still
   * using its session without warning).
   */
  async open(
    kind: SessionKind,
    factory: ConnectionFactory,
    request: HttpRequest,
    authInfo: AuthInfo | undefined,
  ): Promise<HttpSession | SessionRefusal> {
    const owner = quotaOwnerOf(authInfo, clientAddressKey(request.remoteAddress));
    if ((this.perClient.get(owner)?.sessions ?? 0) >= this.maxSessionsPerClient) return 'client-full';
    if ((await this.store.size()) >= this.maxSessions) return 'server-full';
    let client = this.perClient.get(owner);
    if (client === undefined) this.perClient.set(owner, (client = { owner, principal: principalOf(authInfo), events: this.eventStore, sessions: 0 }));
    // Counted before the session is stored, so concurrent opens cannot overshoot.
    if (client.sessions >= this.maxSessionsPerClient) return 'client-full';
    client.sessions++;
    const id = mintSessionId();
    let session: HttpSession | undefined;
    try {
      session = this.create(id, kind, client, factory);
      await this.store.set(id, session);
    } catch (error) {
      if (session !== undefined) this.retire(session, 'session could not be stored');
      else if (--client.sessions <= 0 && this.perClient.get(owner) === client) this.perClient.delete(owner);
      throw error;
    }
    return session;
  }

  /** A new session with its protocol connection. */
  protected create(id: string, kind: SessionKind, client: SessionClient, factory: ConnectionFactory): HttpSession {
    const session = new HttpSession(id, kind, client, this.report);
    // A bound method, not an arrow field: about 70 bytes less per session than a closure and its context.
    session.connection = factory.openConnection({ send: session.send.bind(session), sessionId: id, transport: 'http' });
    return session;
  }

  async end(session: HttpSession, reason: string): Promise<void> {
    if (!this.retire(session, reason)) return;
    await this.store.delete(session.id);
  }

  async closeAll(reason: string): Promise<void> {
    for (const session of await this.store.values()) await this.end(session, reason);
    await this.store.close?.();
  }

  // One process: nothing crosses to another instance.
  intercept(_post: InterceptedPost): HttpResponse | undefined | Promise<HttpResponse | undefined> {
    return undefined;
  }

  outbound(_session: HttpSession): ((message: JsonRpcMessage) => JsonRpcMessage) | undefined {
    return undefined;
  }

  holdStream(_session: HttpSession, _lastEventId: string | undefined): void | Promise<void> {}

  streamId(session: HttpSession, _requestId: JsonRpcId | undefined): string {
    return session.localStreamId();
  }

  standaloneId(session: HttpSession): string {
    return `${session.streamPrefix}s`;
  }

  resumeRemote(_session: HttpSession, _lastEventId: string, _request: HttpRequest, _keepAliveMs: number): Promise<HttpResponse | undefined> | undefined {
    return undefined;
  }

  size(): Promise<number> | number {
    return this.store.size();
  }

  /** Sessions `owner` holds (for tests and metrics). */
  heldBy(owner: string): number {
    return this.perClient.get(owner)?.sessions ?? 0;
  }

  /** Closes a session and returns what it held; false when it was already closed. `release` drops its events too. */
  protected retire(session: HttpSession, reason: string, release = true): boolean {
    if (session.closed) return false;
    session.close(reason);
    const released = release ? this.eventStore?.release(session.id) : undefined;
    if (released instanceof Promise) released.catch((error: unknown) => this.report(`releasing the events of session ${session.id} from the event store failed`, error));
    const { client } = session;
    if (--client.sessions <= 0 && this.perClient.get(client.owner) === client) this.perClient.delete(client.owner);
    return true;
  }
}

function visible(session: HttpSession | undefined, authInfo: AuthInfo | undefined): HttpSession | undefined {
  if (session === undefined || session.closed || !samePrincipal(session.principal, authInfo)) return undefined;
  return session;
}

/** True when a payload (a message or a batch) holds a request: something that will run and be answered. */
export function carriesRequest(payload: unknown): boolean {
  if (Array.isArray(payload)) return payload.some(isRequestLike);
  return isRequestLike(payload);
}

function isRequestLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'method' in value && 'id' in value;
}

/**
 * 429 when the session already runs `maxRequestsPerSession` requests. Only for
 * payloads that carry a request: a response (an elicitation answer) or a
 * notification must always get through, or the running requests could never finish.
 */
export function tooManyRequests(ctx: { readonly maxRequestsPerSession: number }, session: HttpSession, id?: JsonRpcId): HttpResponse | undefined {
  if (session.inflight < ctx.maxRequestsPerSession) return undefined;
  return requestLimit(`${ctx.maxRequestsPerSession} requests (maxRequestsPerSession)`, session.kind === 'legacy-sse' ? 'on the SSE stream' : '', id);
}

export function requestLimit(what: string, where: string, id?: JsonRpcId): HttpResponse {
  return httpError(
    429,
    ErrorCode.InvalidRequest,
    `Too many requests: this session already has ${what} running; wait for their responses${where === '' ? '' : ` ${where}`} before sending more`,
    { headers: { 'retry-after': '1' }, ...(id === undefined ? {} : { id }) },
  );
}

/** The answer to an `initialize` (or legacy SSE GET) that `open` refused. */
export function refusedSession(registry: Pick<SessionBackend, 'maxSessions' | 'maxSessionsPerClient'>, refusal: SessionRefusal, id?: JsonRpcId): HttpResponse {
  const options = { headers: { 'retry-after': '5' }, ...(id === undefined ? {} : { id }) };
  if (refusal === 'client-full') {
    return httpError(
      429,
      ErrorCode.InvalidRequest,
      `Too many sessions: this client holds its maximum of ${registry.maxSessionsPerClient} sessions (maxSessionsPerClient); ` +
        'end unused sessions with DELETE, or retry after one expires',
      options,
    );
  }
  return httpError(
    503,
    ErrorCode.InternalError,
    `Service unavailable: the server holds its maximum of ${registry.maxSessions} sessions; retry later, and end unused sessions with DELETE`,
    options,
  );
}
