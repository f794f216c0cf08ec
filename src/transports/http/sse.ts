/**
 * Server-Sent Events: one HTTP response carrying events (SseConnection) and one
 * logical stream that may outlive its connection (EventStream): the response
 * stream of a POST, or a session's standalone GET stream.
 */
import type { JsonRpcMessage } from '../../jsonrpc/message.js';
import { unserializableResponse } from '../../jsonrpc/serialize.js';
import { encodeJson } from '../../jsonrpc/preset-json.js';
import type { EventLog } from '../../stores/contracts.js';
import type { ChunkSink, ResponseStream } from './types.js';
import { unrefTimer } from '../../util/timers.js';

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // Reverse proxies (nginx) must not hold events back.
  'x-accel-buffering': 'no',
};

/** One event; JSON is single-line, so `data` needs no splitting. */
export function sseEvent(data: string, id?: string, event?: string): string {
  let out = id === undefined ? '' : `id: ${id}\n`;
  if (event !== undefined) out += `event: ${event}\n`;
  return `${out}data: ${data}\n\n`;
}

/** An HTTP response body made of SSE chunks; buffers until the adapter starts it. */
export class SseConnection implements ResponseStream {
  private sink: ChunkSink | undefined;
  private buffer: string[] | undefined = [];
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private closedFlag = false;

  get closed(): boolean {
    return this.closedFlag;
  }

  start(sink: ChunkSink): void {
    this.sink = sink;
    const pending = this.buffer;
    this.buffer = undefined;
    if (pending !== undefined) for (const chunk of pending) sink.write(chunk);
    if (this.closedFlag) sink.end();
  }

  write(chunk: string): void {
    if (this.closedFlag) return;
    if (this.sink === undefined) this.buffer?.push(chunk);
    else this.sink.write(chunk);
  }

  /** Sends an SSE comment every `ms` so idle intermediaries keep the connection. */
  keepAliveEvery(ms: number): void {
    if (ms <= 0 || this.keepAlive !== undefined) return;
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), ms);
    unrefTimer(this.keepAlive);
  }

  end(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.sink?.end();
  }

  /** The client went away: stop writing without ending (the adapter already closed). */
  drop(): void {
    this.closedFlag = true;
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
  }
}

/**
 * A logical SSE stream. With an event store every message is recorded before it
 * is written, so a client whose connection dropped can resume with
 * Last-Event-ID; the stream then continues on the new connection.
 */
export class EventStream {
  private connection: SseConnection | undefined;
  private finishedFlag = false;
  /** Serializes writes when the event store answers asynchronously. */
  private tail: Promise<void> | undefined;
  /** While a resumption replays, live events wait here. */
  private held: [string | undefined, string][] | undefined;
  onFinish: (() => void) | undefined;

  constructor(
    readonly id: string,
    private readonly store: EventLog | undefined,
    /** Told when recording an event fails (the event was still sent live, but cannot be replayed). */
    private readonly onStoreError: (error: unknown) => void,
  ) {}

  get finished(): boolean {
    return this.finishedFlag;
  }

  get attached(): boolean {
    return this.connection !== undefined && !this.connection.closed;
  }

  get resumable(): boolean {
    return this.store !== undefined;
  }

  attach(connection: SseConnection): void {
    if (this.connection !== undefined && this.connection !== connection) this.connection.end();
    this.connection = connection;
  }

  /** The client closed `connection`; keep the stream. */
  detach(connection: SseConnection): void {
    connection.drop();
    if (this.connection === connection) this.connection = undefined;
  }

  /** Writes the priming event: an id the client can resume from, with empty data. */
  prime(): void {
    const store = this.store;
    if (store === undefined) return;
    this.enqueue(() => {
      const id = store.append(this.id);
      return typeof id === 'string' ? this.writePriming(id) : id.then((eventId) => this.writePriming(eventId));
    });
  }

  /** Throws UnserializableMessageError for a notification or request that cannot be serialised (its sender gets it). */
  send(message: JsonRpcMessage): void {
    if (this.finishedFlag) return;
    let data: string;
    try {
      data = encodeJson(message);
    } catch {
      // A response that cannot be serialised is answered -32603, and that is what the log keeps.
      message = unserializableResponse(message);
      data = JSON.stringify(message);
    }
    const store = this.store;
    if (store === undefined) {
      this.enqueue(() => this.deliver(undefined, data));
      return;
    }
    this.enqueue(() => {
      let id: string | Promise<string>;
      try {
        id = store.append(this.id, message);
      } catch (error) {
        return this.unrecorded(error, data);
      }
      return typeof id === 'string' ? this.deliver(id, data) : id.then((eventId) => this.deliver(eventId, data), (error: unknown) => this.unrecorded(error, data));
    });
  }

  /** Ends the current connection early with a `retry` hint; the stream goes on (SEP-1699). */
  closeConnection(retryMs?: number): void {
    this.enqueue(() => {
      const connection = this.connection;
      if (connection === undefined) return;
      if (retryMs !== undefined && Number.isFinite(retryMs) && retryMs >= 0) connection.write(`retry: ${Math.floor(retryMs)}\n\n`);
      connection.end();
      this.connection = undefined;
    });
  }

  /** After the last message: ends the connection and the stream. */
  finish(): void {
    this.enqueue(() => {
      this.finishedFlag = true;
      this.connection?.end();
      this.connection = undefined;
      this.onFinish?.();
      // After the response was recorded (the queue is ordered): followers on other instances end with it.
      return this.store?.finish?.(this.id);
    });
  }

  /** Ends the stream now, dropping anything still queued (shutdown, session end). */
  abort(): void {
    this.finishedFlag = true;
    this.connection?.end();
    this.connection = undefined;
    this.onFinish?.();
  }

  /**
   * Moves the stream onto a resuming connection. `replay` writes what the
   * client missed and records the ids it wrote in `written`; live events
   * produced meanwhile are held, then written once, without duplicates.
   */
  async resume(connection: SseConnection, written: Set<string>, replay: () => Promise<void>): Promise<void> {
    this.held = [];
    try {
      await replay();
    } finally {
      const held = this.held;
      this.held = undefined;
      for (const [id, chunk] of held) if (id === undefined || !written.has(id)) connection.write(chunk);
    }
    if (this.finishedFlag) connection.end();
    else this.attach(connection);
  }

  /** A store that cannot record an event must not cost the client the event: it goes out live, without an id (not resumable). */
  private unrecorded(error: unknown, data: string): void {
    this.onStoreError(error);
    this.deliver(undefined, data);
  }

  private writePriming(id: string): void {
    this.connection?.write(`id: ${id}\ndata: \n\n`);
  }

  private deliver(id: string | undefined, data: string): void {
    const chunk = sseEvent(data, id);
    if (this.held !== undefined) this.held.push([id, chunk]);
    else this.connection?.write(chunk);
  }

  private enqueue(step: () => void | Promise<void>): void {
    if (this.tail !== undefined) {
      this.tail = this.tail.then(step).catch(this.onStoreError);
      return;
    }
    let result: void | Promise<void>;
    try {
      result = step();
    } catch (error) {
      this.onStoreError(error);
      return;
    }
    if (result instanceof Promise) {
      const tail: Promise<void> = result.catch(this.onStoreError).then(() => {
        if (this.tail === tail) this.tail = undefined;
      });
      this.tail = tail;
    }
  }
}
