/** Streamable HTTP sessions (2025-03-26 … 2025-11-25) and the registry that bounds them. */
import type { JsonRpcMessage } from '../../jsonrpc/message.js';
import type { ConnectionFactory, McpConnection } from '../../protocol/connection.js';
import type { EventStore, SessionStore } from '../../stores/contracts.js';
import { mintSessionId, randomToken } from './headers.js';
import { EventStream } from './sse.js';

export type SessionKind = 'streamable' | 'legacy-sse';

export class HttpSession {
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

  constructor(
    readonly id: string,
    readonly kind: SessionKind,
    private readonly eventStore: EventStore | undefined,
  ) {}

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

  nextStreamId(): string {
    return this.streamPrefix + (this.streamCounter++).toString(36);
  }

  get standaloneId(): string {
    return `${this.streamPrefix}s`;
  }

  /** The session's standalone stream (the GET stream, or the legacy SSE stream). */
  standalone(): EventStream {
    this.standaloneStream ??= new EventStream(this.standaloneId, this.kind === 'streamable' ? this.eventStore : undefined);
    return this.standaloneStream;
  }

  /** Messages not tied to a request go to the standalone stream; with none open they are dropped. */
  readonly send = (message: JsonRpcMessage): void => {
    if (this.closed) return;
    const stream = this.standaloneStream;
    // Once a client has opened the stream it can resume it, so record while it is away.
    if (stream !== undefined && (stream.attached || stream.resumable)) stream.send(message);
  };

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

/** Live sessions over a SessionStore, with a hard cap. */
export class SessionRegistry {
  constructor(
    private readonly store: SessionStore<HttpSession>,
    private readonly maxSessions: number,
    private readonly eventStore: EventStore | undefined,
  ) {
    store.onExpire((_id, session) => {
      if (session.busy) return false;
      session.close('session expired');
      return true;
    });
  }

  async get(id: string): Promise<HttpSession | undefined> {
    const session = await this.store.get(id);
    if (session === undefined || session.closed) return undefined;
    return session;
  }

  touch(session: HttpSession): void {
    const touched = this.store.touch(session.id);
    if (touched instanceof Promise) touched.catch(() => undefined);
  }

  /**
   * Opens a session with its own protocol connection; `undefined` when the
   * cap is reached (we refuse rather than evict: evicting would cut off a
   * client that is still using its session without warning).
   */
  async open(kind: SessionKind, factory: ConnectionFactory): Promise<HttpSession | undefined> {
    if ((await this.store.size()) >= this.maxSessions) return undefined;
    const id = mintSessionId();
    const session = new HttpSession(id, kind, this.eventStore);
    session.connection = factory.openConnection({ send: session.send, sessionId: id, transport: 'http' });
    await this.store.set(id, session);
    return session;
  }

  async end(session: HttpSession, reason: string): Promise<void> {
    session.close(reason);
    await this.store.delete(session.id);
  }

  async closeAll(reason: string): Promise<void> {
    for (const session of await this.store.values()) await this.end(session, reason);
    await this.store.close?.();
  }

  size(): Promise<number> | number {
    return this.store.size();
  }
}
