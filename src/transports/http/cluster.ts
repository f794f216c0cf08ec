/**
 * Several instances as one HTTP server (the `cluster` option). A legacy
 * session lives as a record in a SharedSessionStore; each instance keeps a
 * live copy (connection, streams) built from the record on first use and
 * rebuilt when the record changed elsewhere. What cannot leave an instance
 * travels on the ClusterChannel: a client's answer goes to the instance whose
 * id its request id carries, cancellation to every instance, messages for a
 * GET stream to the instance holding it, a session's end everywhere.
 */
import { isPlainObject, type JsonRpcId, type JsonRpcMessage } from '../../jsonrpc/message.js';
import type { AuthInfo, ConnectionFactory, ConnectionOptions, McpConnection } from '../../protocol/connection.js';
import { principalOf } from '../../protocol/request/principal.js';
import type { ClusterChannel, ClusterMessage, SharedSession, SharedSessionStore, StoredSessionRecord } from '../../stores/shared-sessions.js';
import type { HttpClusterOptions } from './types.js';
import type { EventStore, MaybePromise, SessionStore } from '../../stores/contracts.js';
import type { SessionRecord } from '../../protocol/wire/session-record.js';
import { quotaOwnerOfRequest } from './client-address.js';
import { originStreamId } from './stream-origin.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { httpError } from './errors.js';
import type { HttpRequest, HttpResponse } from './types.js';
import { parseEventId } from '../../stores/follow.js';
import { followRemote, isFollowable } from './follow-remote.js';
import { cannotResume } from './errors.js';
import { SSE_HEADERS } from './sse.js';
import { HttpSession, SessionRegistry, type InterceptedPost, type ReportFailure, type SessionClient, type SessionKind, type SessionRefusal } from './sessions.js';
import { unrefTimer } from '../../util/timers.js';

/** `<id>@<instance>.<generation>`: where the answer to a server→client request must go. */
const ROUTED_ID = /^(.*)@([A-Za-z0-9_-]{1,64})\.(\d{1,9})$/;

/** A live copy of a shared session on this instance. */
export class SharedHttpSession extends HttpSession {
  /** The record revision this copy was built from. */
  rev = 0;
  /** Stored yet (false until `initialize` negotiated the record). */
  stored = false;
  /** The instance holding the GET stream, as last seen. */
  holder: string | undefined;
  /** Which connection is current; older ones finish their requests, then close. */
  generation = 0;
  readonly generations = new Map<number, McpConnection>();

  constructor(
    id: string,
    client: SessionClient,
    private readonly registry: ClusterSessionRegistry,
  ) {
    super(id, 'streamable', client, registry.report);
  }

  /** Request-related messages without a stream of their own go to the GET stream, wherever it is held. */
  override send(message: JsonRpcMessage): void {
    if (this.closed) return;
    const holder = this.holder;
    if (holder === undefined || holder === this.registry.instanceId) super.send(message);
    else this.registry.forward(holder, { type: 'stream', session: this.id, message });
  }

  /** The request was answered: instances following the stream end with it. */
  finish(streamId: string): MaybePromise<void> {
    if (this.closed) return;
    return this.client.events?.finish?.(this.id, streamId);
  }

  /** Writes to this instance's standalone stream. */
  toStandalone(message: JsonRpcMessage): void {
    super.send(message);
  }

  /** Server→client requests carry this instance and generation in their id. */
  route(message: JsonRpcMessage, generation: number): JsonRpcMessage {
    return routeOutbound(message, `@${this.registry.instanceId}.${generation}`);
  }
}

/** Live copies of shared sessions, kept consistent with their records. */
export class ClusterSessionRegistry extends SessionRegistry {
  readonly instanceId: string;
  readonly #shared: SharedSessionStore;
  readonly #channel: ClusterChannel;
  readonly #factory: ConnectionFactory;

  constructor(
    store: SessionStore<HttpSession>,
    maxSessions: number,
    maxSessionsPerClient: number,
    eventStore: EventStore | undefined,
    factory: ConnectionFactory,
    cluster: HttpClusterOptions,
    report: ReportFailure,
  ) {
    super(store, maxSessions, maxSessionsPerClient, eventStore, report);
    this.#shared = cluster.sessions;
    this.#channel = cluster.channel;
    this.#factory = factory;
    this.instanceId = cluster.channel.instanceId;
    // A failed subscription is retried at the next session request (see `ensureListening`).
    this.#listen().catch(() => undefined);
    // A session in use here (a GET stream open for long) must not expire in the shared store.
    const every = Math.max(1_000, Math.floor(cluster.sessions.idleTimeoutMs / 3));
    this.#keepAlive = setInterval(() => void this.#touchBusy(), every);
    unrefTimer(this.#keepAlive);
    // Idle copies leave this instance only: the shared record lives on (its own TTL).
    store.onExpire((_id, session) => {
      if (session.busy) return false;
      this.retire(session, 'session expired', !(session instanceof SharedHttpSession));
      return true;
    });
  }

  #listening: Promise<unknown> | undefined;
  readonly #keepAlive: ReturnType<typeof setInterval>;

  async #touchBusy(): Promise<void> {
    for (const session of await this.store.values()) {
      if (session instanceof SharedHttpSession && session.busy && !session.closed) await this.#shared.load(session.id, session.principal).catch(() => undefined);
    }
  }

  #listen(): Promise<unknown> {
    const listening = this.#channel.listen((message) => this.#receive(message));
    this.#listening = listening;
    listening.catch(() => {
      if (this.#listening === listening) this.#listening = undefined;
    });
    return listening;
  }

  /** Resolves once this instance hears the channel (a Redis outage at start-up is retried here). */
  ensureListening(): Promise<unknown> {
    return this.#listening ?? this.#listen();
  }

  override async get(id: string, authInfo: AuthInfo | undefined): Promise<HttpSession | undefined> {
    await this.ensureListening();
    const local = await this.store.get(id);
    // Legacy SSE sessions (2024-11-05) stay on the instance holding their stream.
    if (local !== undefined && !(local instanceof SharedHttpSession)) return super.get(id, authInfo);
    const principal = principalOf(authInfo);
    // Another principal's copy is as unknown as no copy, and never touched: its lookup must not end it.
    if (local !== undefined && local.principal !== principal) return undefined;
    const shared = await this.#shared.load(id, principal);
    if (shared === undefined) {
      if (local !== undefined) await this.#drop(local, 'session ended');
      return undefined;
    }
    return this.#current(id, shared, principal);
  }

  /** The live copy for `shared`: the one in place (refreshed), or one restore that concurrent requests share. */
  async #current(id: string, shared: SharedSession, principal: string | undefined): Promise<HttpSession | undefined> {
    const local = await this.store.get(id);
    if (local instanceof SharedHttpSession && !local.closed) {
      if (local.principal !== principal) return undefined;
      local.holder = shared.holder;
      if (shared.rev !== local.rev) this.#rebuild(local, shared);
      return local;
    }
    let restoring = this.#restoring.get(id);
    if (restoring === undefined) {
      restoring = this.#restore(id, shared, principal).finally(() => this.#restoring.delete(id));
      this.#restoring.set(id, restoring);
    }
    const session = await restoring;
    return session.principal === principal ? session : undefined;
  }

  /**
   * One follower per stream of a session on this instance: a new resumption
   * ends the one before (as a local resumption takes over its stream), so
   * repeated GETs cannot pile up connections and liveness checks.
   */
  follower(session: string, stream: string): { signal: AbortSignal; release: () => void } {
    const key = `${session} ${stream}`;
    this.#followers.get(key)?.abort();
    const takeover = new AbortController();
    this.#followers.set(key, takeover);
    return {
      signal: takeover.signal,
      release: () => {
        if (this.#followers.get(key) === takeover) this.#followers.delete(key);
      },
    };
  }

  readonly #followers = new Map<string, AbortController>();

  /** Restores in progress, so concurrent first requests on this instance build one copy, not one each. */
  readonly #restoring = new Map<string, Promise<SharedHttpSession>>();

  override touch(session: HttpSession): void {
    super.touch(session);
    if (session instanceof SharedHttpSession && session.inflight === 0) this.#closeOldGenerations(session);
  }

  override async end(session: HttpSession, reason: string): Promise<void> {
    if (!(session instanceof SharedHttpSession)) return super.end(session, reason);
    await super.end(session, reason);
    await this.#shared.delete(session.id, session.principal);
    await this.#channel.broadcast({ type: 'ended', session: session.id });
  }

  /** Shutting down: live copies close here; the sessions live on for the other instances. */
  override async closeAll(reason: string): Promise<void> {
    clearInterval(this.#keepAlive);
    for (const session of await this.store.values()) {
      if (session instanceof SharedHttpSession) await this.#drop(session, reason);
      else await super.end(session, reason);
    }
    await this.store.close?.();
    await this.#channel.close?.();
  }

  /** A GET stream opens here: unless it resumes a request's stream, messages for the GET stream come here from now on. */
  override async holdStream(session: HttpSession, lastEventId: string | undefined): Promise<void> {
    if (!(session instanceof SharedHttpSession) || session.holder === this.instanceId) return;
    if (lastEventId !== undefined && parseEventId(lastEventId)?.streamId !== this.standaloneId(session)) return;
    await this.#shared.hold(session.id, session.principal, this.instanceId);
    session.holder = this.instanceId;
  }

  /** A request's stream this instance does not hold may be written by another one: follow it in the shared store. */
  /** Names this instance and the request, so an instance resuming the stream knows who writes it. */
  override streamId(session: HttpSession, requestId: JsonRpcId | undefined): string {
    return originStreamId(session.localStreamId(), this.instanceId, this.incarnation, requestId);
  }

  /** A shared session's is stable across instances (its id), so a GET stream resumed elsewhere is still the standalone one. */
  override standaloneId(session: HttpSession): string {
    return session instanceof SharedHttpSession ? `${session.id}.s` : super.standaloneId(session);
  }

  override resumeRemote(session: HttpSession, lastEventId: string, request: HttpRequest, keepAliveMs: number): Promise<HttpResponse | undefined> | undefined {
    const store = this.eventStore;
    const named = parseEventId(lastEventId)?.streamId;
    if (store === undefined || !isFollowable(store) || named === undefined || named === this.standaloneId(session) || session.live.has(named)) return undefined;
    return followRemote(store, this, session.id, lastEventId, request.signal, this.follower(session.id, named)).then((followed) => {
      if (followed === undefined) return cannotResume(lastEventId);
      followed.keepAliveEvery(keepAliveMs);
      return { status: 200, headers: { ...SSE_HEADERS, 'mcp-session-id': session.id }, stream: followed };
    });
  }

  /** Server→client requests of a call carry this instance and the session's current generation in their id. */
  override outbound(session: HttpSession): ((message: JsonRpcMessage) => JsonRpcMessage) | undefined {
    if (!(session instanceof SharedHttpSession)) return undefined;
    const suffix = `@${this.instanceId}.${session.generation}`;
    return (message) => routeOutbound(message, suffix);
  }

  /**
   * A POSTed payload: client answers and cancellations that belong elsewhere
   * travel on the channel; what is left is handled here. Nothing left: 202,
   * or 410 when an instance an answer belongs to is gone.
   */
  override intercept(post: InterceptedPost): HttpResponse | undefined | Promise<HttpResponse | undefined> {
    const session = post.session;
    if (!(session instanceof SharedHttpSession)) return undefined;
    const answered: string[] = [];
    const payload = post.payload;
    let rest: unknown;
    if (Array.isArray(payload)) {
      const kept = payload.filter((item) => this.#interceptOne(session, item, answered));
      rest = kept.length === 0 ? undefined : kept.length === payload.length ? payload : kept;
    } else {
      rest = this.#interceptOne(session, payload, answered) ? payload : undefined;
    }
    if (rest !== undefined) {
      if (rest !== payload) {
        post.payload = rest;
        post.reshape();
      }
      return undefined;
    }
    const accepted: HttpResponse = { status: 202, headers: { 'mcp-session-id': session.id } };
    if (answered.length === 0) return accepted;
    return this.undelivered(answered).then((refused) => refused ?? accepted);
  }

  /** This run of this instance (stream ids name it). */
  get incarnation(): string {
    return this.#channel.incarnation ?? '0';
  }

  /** Whether an instance (that run of it, given `incarnation`) still runs; presumed so when the channel cannot tell or cannot be asked. */
  async alive(instanceId: string, incarnation?: string): Promise<boolean> {
    if (instanceId === this.instanceId) return incarnation === undefined || incarnation === this.incarnation;
    if (this.#channel.alive === undefined) return true;
    return this.#channel.alive(instanceId, incarnation).catch(() => true);
  }

  /** How often to ask `alive` while waiting on another instance; undefined when the channel cannot tell. */
  get livenessCheckMs(): number | undefined {
    return this.#channel.alive === undefined ? undefined : (this.#channel.livenessCheckMs ?? 1_000);
  }

  /**
   * The answer to a POST of client answers whose asking instances (`answered`,
   * from `intercept`) are gone: 410, since the requests they belong to ended
   * with those instances. Undefined when all of them still run.
   */
  async undelivered(answered: readonly string[]): Promise<HttpResponse | undefined> {
    const gone: string[] = [];
    for (const instance of new Set(answered)) if (!(await this.alive(instance))) gone.push(instance);
    if (gone.length === 0) return undefined;
    const which = gone.map((instance) => `"${instance}"`).join(', ');
    return httpError(
      410,
      ErrorCode.InvalidRequest,
      `Gone: this answer cannot be delivered: the server instance that asked (${which}) has stopped, and the request it asked for ended with it ` +
        '(its stream, resumed with Last-Event-ID, answers it with an error); re-issue that request',
      { data: { instances: gone } },
    );
  }

  forward(instanceId: string, message: ClusterMessage): void {
    this.#channel.send(instanceId, message).catch(() => undefined);
  }

  /**
   * A session opens only when its record can be stored (else 503 before
   * anything runs), and within the quotas counted across every instance.
   */
  override async open(kind: SessionKind, factory: ConnectionFactory, request: HttpRequest, authInfo: AuthInfo | undefined): Promise<HttpSession | SessionRefusal> {
    if (kind !== 'streamable') return super.open(kind, factory, request, authInfo);
    const shared = this.#shared;
    if (shared.count === undefined) {
      await Promise.all([shared.ping(), this.ensureListening()]);
      return super.open(kind, factory, request, authInfo);
    }
    // Checked, not reserved: concurrent opens on several instances may overshoot by the opens in flight.
    const [held] = await Promise.all([shared.count(quotaOwnerOfRequest(authInfo, request.remoteAddress)), this.ensureListening()]);
    if (held.owner >= this.maxSessionsPerClient) return 'client-full';
    if (held.total >= this.maxSessions) return 'server-full';
    return super.open(kind, factory, request, authInfo);
  }

  protected override create(id: string, kind: SessionKind, client: SessionClient, factory: ConnectionFactory): HttpSession {
    if (kind !== 'streamable') return super.create(id, kind, client, factory);
    const session = new SharedHttpSession(id, client, this);
    this.#connect(session, undefined);
    return session;
  }

  /** True when `item` is still to be handled here. */
  #interceptOne(session: SharedHttpSession, item: unknown, answered: string[] | undefined): boolean {
    // Only well-formed JSON-RPC is routed; anything else takes the ordinary path and gets its precise error.
    if (!isPlainObject(item) || item['jsonrpc'] !== '2.0') return true;
    if (item['method'] === 'notifications/cancelled') {
      if ('id' in item || !isPlainObject(item['params']) || !('requestId' in item['params'])) return true;
      // The request may run on any instance: each aborts it if it runs there.
      this.#channel.broadcast({ type: 'cancel', session: session.id, message: item as unknown as JsonRpcMessage }).catch(() => undefined);
      return false;
    }
    const id = item['id'];
    if ('method' in item || typeof id !== 'string' || ('result' in item) === ('error' in item)) return true;
    const routed = ROUTED_ID.exec(id);
    if (routed === null) return true;
    const message = item as unknown as JsonRpcMessage;
    if (routed[2] === this.instanceId) {
      this.#answer(session, message);
    } else {
      this.forward(routed[2]!, { type: 'answer', session: session.id, message });
      answered?.push(routed[2]!);
    }
    return false;
  }

  /** Delivers a client's answer to the generation that asked, with the id it was asked with. */
  #answer(session: SharedHttpSession, message: JsonRpcMessage): void {
    const routed = ROUTED_ID.exec(String((message as { id?: unknown }).id));
    if (routed === null) return;
    const connection = session.generations.get(Number(routed[3]));
    if (connection !== undefined) Promise.resolve(connection.handleMessage({ ...message, id: routed[1] })).catch(() => undefined);
  }

  #receive(message: ClusterMessage): void {
    void Promise.resolve(this.store.get(message.session)).then((session) => {
      if (!(session instanceof SharedHttpSession) || session.closed) return;
      switch (message.type) {
        case 'answer':
          return this.#answer(session, message.message);
        case 'cancel':
          for (const connection of session.generations.values()) Promise.resolve(connection.handleMessage(message.message)).catch(() => undefined);
          return;
        case 'stream':
          return session.toStandalone(message.message);
        case 'changed':
          if (message.rev !== session.rev) return this.#refresh(session);
          return;
        case 'ended':
          return this.#drop(session, 'session ended');
      }
    });
  }

  async #refresh(session: SharedHttpSession): Promise<void> {
    const shared = await this.#shared.load(session.id, session.principal).catch(() => undefined);
    if (shared === undefined) await this.#drop(session, 'session ended');
    else if (shared.rev !== session.rev) this.#rebuild(session, shared);
  }

  async #restore(id: string, shared: SharedSession, principal: string | undefined): Promise<SharedHttpSession> {
    // Counted where it was opened; here it is a copy, charged in the event store to the same client as there.
    const client: SessionClient = { owner: shared.owner ?? principal ?? `session:${id}`, principal, events: this.eventStore, sessions: 1 };
    const session = new SharedHttpSession(id, client, this);
    session.stored = true;
    session.rev = shared.rev;
    session.holder = shared.holder;
    this.#connect(session, shared.record);
    const replaced = await this.store.get(id);
    // A copy left closed (or a legacy one) is retired, never leaked with its connection.
    if (replaced !== undefined && replaced !== session) this.retire(replaced, 'session restored', false);
    await this.store.set(id, session);
    return session;
  }

  /** The record changed on another instance: new requests get a connection built from it. */
  #rebuild(session: SharedHttpSession, shared: SharedSession): void {
    session.rev = shared.rev;
    this.#connect(session, shared.record);
    if (session.inflight === 0) this.#closeOldGenerations(session);
  }

  #connect(session: SharedHttpSession, record: StoredSessionRecord | undefined): void {
    const generation = ++session.generation;
    const options: ConnectionOptions = {
      // Only the instance holding the GET stream delivers what the bus fans out (every copy hears it).
      send: (message) => {
        if (session.generation !== generation) return;
        if (session.holder === undefined || session.holder === this.instanceId) session.toStandalone(session.route(message, generation));
      },
      sessionId: session.id,
      transport: 'http',
      onRecordChange: (changed) => this.#recordChanged(session, changed),
      // A stored record is JSON from another instance: the connection validates it (parseSessionRecord) before using it.
      ...(record === undefined ? {} : { record: record as SessionRecord }),
    };
    const connection = this.#factory.openConnection(options);
    session.generations.set(generation, connection);
    session.connection = connection;
  }

  async #recordChanged(session: SharedHttpSession, record: SessionRecord): Promise<void> {
    if (!session.stored) {
      const created = await this.#shared.create(session.id, session.principal, {
        record,
        createdAt: Date.now(),
        owner: session.client.owner,
        rev: 1,
        ...(session.principal === undefined ? {} : { principal: session.principal }),
      });
      if (!created) throw new Error('session id already in use');
      session.stored = true;
      session.rev = 1;
      return;
    }
    const updated = await this.#shared.update(session.id, session.principal, record);
    if (updated === undefined) throw new Error('session ended');
    session.rev = updated.rev;
    // The GET stream's instance delivers notifications: its copy must know the new subscriptions.
    if (updated.holder !== undefined && updated.holder !== this.instanceId) this.forward(updated.holder, { type: 'changed', session: session.id, rev: updated.rev });
  }

  #closeOldGenerations(session: SharedHttpSession): void {
    for (const [generation, connection] of session.generations) {
      if (generation === session.generation) continue;
      session.generations.delete(generation);
      connection.close('session record changed');
    }
  }

  /** A copy's connections it replaced end with it: their requests are the session's (closing the current one alone left them running). */
  protected override retire(session: HttpSession, reason: string, release = true): boolean {
    if (!super.retire(session, reason, release)) return false;
    if (session instanceof SharedHttpSession) {
      for (const connection of session.generations.values()) connection.close(reason);
      session.generations.clear();
    }
    return true;
  }

  /** Closes this instance's copy only. */
  async #drop(session: HttpSession, reason: string): Promise<void> {
    this.retire(session, reason, false);
    await this.store.delete(session.id);
  }
}

/** Tags a server→client request (and its cancellation) with where its answer must go. */
function routeOutbound(message: JsonRpcMessage, suffix: string): JsonRpcMessage {
  const record = message as unknown as Record<string, unknown>;
  const id = record['id'];
  if (typeof record['method'] === 'string' && (typeof id === 'string' || typeof id === 'number')) return { ...message, id: `${id}${suffix}` };
  if (record['method'] === 'notifications/cancelled' && isPlainObject(record['params'])) {
    const params = record['params'];
    const requestId = params['requestId'];
    if (typeof requestId === 'string' || typeof requestId === 'number') return { ...message, params: { ...params, requestId: `${requestId}${suffix}` } };
  }
  return message;
}

