import { encodeMessage } from '../jsonrpc/serialize.js';
import { routeConsoleToStderr } from './stdio-console.js';
import type { McpTransport } from './transport.js';
import type { ErrorCodeName } from '../errors/codes.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import { unrefTimer } from '../util/timers.js';

/** The parts of a Node stream the transport uses, so tests can inject a PassThrough pair. */
export interface ReadableLike {
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off?(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  off?(event: 'end' | 'close', listener: () => void): unknown;
  off?(event: 'error', listener: (error: Error) => void): unknown;
  pause?(): unknown;
  resume?(): unknown;
}

export interface WritableLike {
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  /** Called when the client is gone (EPIPE, or output left unread past the bound): drops what is still buffered. */
  destroy?(): unknown;
}

export interface StdioTransportConfig {
  /** Defaults to process.stdin. */
  input?: ReadableLike;
  /** Defaults to process.stdout. Nothing but protocol messages is ever written to it. */
  output?: WritableLike;
  /** The longest accepted line, in UTF-16 code units (default 4 MiB). Longer lines are discarded with a -32700 error. */
  maxLineLength?: number;
  /**
   * Output a client that stopped reading may leave waiting, in UTF-16 code units (default 16 Mi).
   * While the output is full, stdin is paused (no new requests start); past this bound the
   * client is taken as gone and the transport closes (in-flight work is aborted).
   */
  maxOutputBuffer?: number;
  /**
   * After stdin ends, how long in-flight requests may run before they are aborted and the
   * transport closes, in ms (default 5,000; `Infinity` waits for them however long they take).
   */
  eofGraceMs?: number;
  /**
   * When the input is process.stdin: how long requests still running after the EOF abort may take
   * before the process exits, in ms (default 1,000; `false` never exits). A handler that ignores its
   * abort signal (a timer, a socket) would otherwise keep a server its client let go of alive.
   */
  eofExitMs?: number | false;
  /**
   * When the output is process.stdout, route `console.log`/`info`/`debug` (and the other console
   * methods that print to stdout) to stderr while the transport runs, so a stray log line cannot
   * corrupt the protocol stream (default true; `false` leaves the console alone).
   */
  routeConsoleToStderr?: boolean;
  /**
   * How long a response waits after a notification or request written just before it, in ms
   * (default 1; 0: only a separate write). The official SDK clients handle a notification a
   * microtask after the response that arrives in the same read, and drop it (the last progress
   * report of a call); a response in a later read leaves them time. Best effort: a client
   * that is not scheduled for longer than this still reads both at once.
   */
  notificationGapMs?: number;
}

/** Messages queued in one tick before they are written without waiting for the tick to end. */
const FLUSH_AT = 4;

export const DEFAULT_MAX_OUTPUT_BUFFER = 16 * 1024 * 1024;
export const DEFAULT_EOF_GRACE_MS = 5_000;
export const DEFAULT_EOF_EXIT_MS = 1_000;
export const DEFAULT_NOTIFICATION_GAP_MS = 1;

export class LineTooLongError extends Error {
  override readonly name = 'LineTooLongError';
  constructor(limit: number) {
    super(`message exceeds the ${limit}-character line limit and was discarded`);
  }
}

export class InvalidJsonError extends Error {
  override readonly name = 'InvalidJsonError';
}

/** The client stopped reading stdout (or closed it): the transport closed. */
export class OutputClosedError extends Error {
  override readonly name = 'OutputClosedError';
  readonly errorCode: ErrorCodeName = 'output_closed';
}

const STDIO_TRANSPORT_KEYS = keysOf<StdioTransportConfig>({ input: true, output: true, maxLineLength: true, maxOutputBuffer: true, eofGraceMs: true, eofExitMs: true, routeConsoleToStderr: true, notificationGapMs: true });

/**
 * Newline-delimited JSON over a pair of streams. Reads are split on `\n`
 * (CRLF and blank lines tolerated). A notification or request is written at
 * once; responses are batched per tick and never share a write with a message
 * sent before them: they follow it by `notificationGapMs`. Writes respect
 * backpressure: stdin is paused while the output is full, and a client that
 * leaves more than `maxOutputBuffer` unread is taken as gone. At EOF, in-flight
 * requests get `eofGraceMs` to finish before they are aborted and the transport closes.
 */
export class StdioTransport implements McpTransport {
  readonly name = 'stdio';
  onclose: (() => void) | undefined;
  readonly #config: StdioTransportConfig;
  readonly #maxLine: number;
  readonly #maxOutput: number;
  readonly #gapMs: number;
  readonly #decoder = new TextDecoder();
  #inFlight = 0;
  #idle: (() => void) | undefined;
  #input: ReadableLike | undefined;
  #output: WritableLike | undefined;
  #buffer = '';
  #discarding = false;
  #queue: string[] = [];
  #queued = 0;
  #flushScheduled = false;
  /** Index in the queue of the last notification or request, -1 when there is none. */
  #lastNotice = -1;
  /** When the last notification or request was written (performance.now()), 0 when long enough ago. */
  #noticeAt = 0;
  #draining: Promise<void> | undefined;
  #closed = false;
  #ended = false;
  #restoreConsole: (() => void) | undefined;
  #onMessage: ((message: unknown) => void | Promise<void>) | undefined;
  #onError: ((error: Error) => void | Promise<void>) | undefined;
  #listeners: { data: (chunk: Uint8Array | string) => void; end: () => void; error: (e: Error) => void } | undefined;

  constructor(config: StdioTransportConfig = {}) {
    refuseUnknownKeys(config, STDIO_TRANSPORT_KEYS, 'new StdioTransport() config');
    this.#config = config;
    this.#maxLine = config.maxLineLength ?? 4 * 1024 * 1024;
    this.#maxOutput = config.maxOutputBuffer ?? DEFAULT_MAX_OUTPUT_BUFFER;
    this.#gapMs = config.notificationGapMs ?? DEFAULT_NOTIFICATION_GAP_MS;
  }

  start(onMessage: (message: unknown) => void | Promise<void>, onError?: (error: Error) => void | Promise<void>): void {
    if (this.#input) throw new Error('StdioTransport already started');
    this.#onMessage = onMessage;
    this.#onError = onError;
    this.#input = this.#config.input ?? process.stdin;
    const output = (this.#output = this.#config.output ?? process.stdout);
    this.#listeners = {
      data: (chunk) => this.#onData(chunk),
      end: () => this.#end(),
      // A read error ends the input like EOF does.
      error: (error) => {
        void this.#report(error);
        this.#end();
      },
    };
    this.#input.on('data', this.#listeners.data);
    this.#input.on('end', this.#listeners.end);
    this.#input.on('error', this.#listeners.error);
    // EPIPE (the client closed its end of stdout) must not crash the process. Kept after close:
    // the last flush may still fail.
    output.on?.('error', (error: Error) => this.#outputFailed(error));
    if (output === (process.stdout as unknown) && this.#config.routeConsoleToStderr !== false) this.#restoreConsole = routeConsoleToStderr();
    this.#input.resume?.();
  }

  #onData(chunk: Uint8Array | string): void {
    let text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const tail = text.slice(0, newline);
      text = text.slice(newline + 1);
      if (this.#discarding) {
        this.#discarding = false;
      } else if (this.#buffer.length + tail.length > this.#maxLine) {
        this.#buffer = '';
        void this.#report(new LineTooLongError(this.#maxLine));
      } else {
        const line = this.#buffer.length > 0 ? this.#buffer + tail : tail;
        this.#buffer = '';
        this.#line(line);
      }
      newline = text.indexOf('\n');
    }
    if (this.#discarding) return;
    if (this.#buffer.length + text.length > this.#maxLine) {
      // Stop buffering: drop the rest of this line, report once.
      this.#buffer = '';
      this.#discarding = true;
      void this.#report(new LineTooLongError(this.#maxLine));
      return;
    }
    this.#buffer += text;
  }

  #line(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim().length === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      void this.#report(new InvalidJsonError(error instanceof Error ? error.message : 'invalid JSON'));
      return;
    }
    this.#inFlight++;
    // Handlers may answer synchronously: run them after the 'data' event returns. A handler that fills
    // stdout pauses stdin; paused from inside the stream's own read callback, Node keeps reading, and a
    // server whose client stopped reading could not exit once the client lets go.
    queueMicrotask(() => void this.#dispatch(message));
  }

  /** Runs one message; a counter (not a set of promises) tracks what is in flight. */
  async #dispatch(message: unknown): Promise<void> {
    try {
      await this.#onMessage?.(message);
    } catch (error) {
      await this.#report(asError(error));
    } finally {
      if (--this.#inFlight === 0) this.#idle?.();
    }
  }

  async #report(error: Error): Promise<void> {
    try {
      await this.#onError?.(error);
    } catch {
      // The error path must never take the transport down.
    }
  }

  #end(): void {
    this.#onEnd().catch((failure: unknown) => this.#report(asError(failure)));
  }

  async #onEnd(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    const rest = this.#buffer + this.#decoder.decode();
    this.#buffer = '';
    if (!this.#discarding && rest.trim().length > 0) this.#line(rest);
    // In-flight requests finish (and their answers are written) before we close, within the grace period.
    if (this.#inFlight > 0 && !(await this.#whenIdle(this.#config.eofGraceMs ?? DEFAULT_EOF_GRACE_MS))) {
      // Abort what is still running (its answers are still written if they come at once), then close.
      this.#notifyClosed();
      if (!(await this.#whenIdle(0))) this.#exitSoon();
    }
    await this.#flush();
    await this.close();
    this.#notifyClosed();
  }

  /**
   * Requests ignored their abort: the process exits after `eofExitMs` unless it ends first (the timer is
   * unref'd). Only a process serving its own stdin: a transport on other streams leaves the process alone.
   */
  #exitSoon(): void {
    const ms = this.#config.eofExitMs ?? DEFAULT_EOF_EXIT_MS;
    if (ms === false || this.#input !== (process.stdin as unknown) || !Number.isFinite(ms)) return;
    const running = this.#inFlight;
    unrefTimer(
      setTimeout(() => {
        if (this.#inFlight === 0) return;
        // The transport is closed, so nobody listens to #report any more: stderr is the log of a stdio server.
        process.stderr.write(`mcpkit: stdin ended and ${running} request(s) still ran ${ms} ms after they were aborted (their handlers ignore ctx.signal); exiting\n`, () => process.exit());
      }, ms),
    );
  }

  /** True when nothing is in flight within `ms` (0: by the next macrotask). */
  #whenIdle(ms: number): Promise<boolean> {
    if (this.#inFlight === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const done = (idle: boolean): void => {
        this.#idle = undefined;
        if (timer !== undefined) clearTimeout(timer);
        if (immediate !== undefined) clearImmediate(immediate);
        resolve(idle);
      };
      this.#idle = () => done(true);
      const timer = Number.isFinite(ms) && ms > 0 ? setTimeout(() => done(false), ms) : undefined;
      const immediate = ms === 0 ? setImmediate(() => done(false)) : undefined;
      // The grace timer alone does not keep the process alive.
      if (timer !== undefined) unrefTimer(timer);
    });
  }

  #notifyClosed(): void {
    const onclose = this.onclose;
    this.onclose = undefined;
    onclose?.();
  }

  /**
   * Queues one message. Throws UnserializableMessageError for a notification or
   * request that cannot be serialised; a response that cannot is answered -32603.
   */
  send(message: unknown): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const text = encodeMessage(message);
    this.#queue.push(text);
    this.#queued += text.length;
    if (this.#draining !== undefined) {
      // The client is not reading: bound what waits for it.
      if (this.#queued > this.#maxOutput) this.#outputFailed(new OutputClosedError(`the client left more than ${this.#maxOutput} characters of output unread; closing`));
      return this.#draining;
    }
    if (isOutgoingNotice(message)) {
      // A notification or request goes out at once, with what was queued before it, unless
      // responses wait ahead of it for their gap (they must stay in order).
      this.#lastNotice = this.#queue.length - 1;
      if (this.#queue.length === 1 || this.#holdMs() === 0) this.#write(this.#queue.length);
      else this.#schedule();
    } else if (this.#queue.length >= FLUSH_AT && this.#lastNotice < 0 && this.#holdMs() === 0) {
      // Responses are batched per tick, but not too much: a client reading the first
      // answers while we still work on the rest keeps both sides busy.
      this.#write(this.#queue.length);
    } else {
      this.#schedule();
    }
    return this.#draining ?? Promise.resolve();
  }

  /** How long responses must still wait after the last notification written (0: none). */
  #holdMs(): number {
    if (this.#noticeAt === 0) return 0;
    const left = this.#noticeAt + this.#gapMs - performance.now();
    if (left > 0) return left;
    this.#noticeAt = 0;
    return 0;
  }

  #schedule(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    const hold = this.#holdMs();
    if (hold > 0) setTimeout(this.#scheduledFlush, hold);
    else setImmediate(this.#scheduledFlush);
  }

  readonly #scheduledFlush = (): void => {
    this.#flushScheduled = false;
    // While the output is full, the 'drain' handler writes.
    if (this.#draining !== undefined || this.#queue.length === 0) return;
    if (this.#holdMs() > 0) return this.#schedule();
    const last = this.#lastNotice;
    if (last >= 0 && last < this.#queue.length - 1) {
      // Responses queued after a notification wait for a later write.
      this.#write(last + 1);
      this.#schedule();
    } else {
      this.#write(this.#queue.length);
    }
  };

  /** Waits for a full output to drain, then writes what is queued. */
  async #flush(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
    this.#write(this.#queue.length);
  }

  /** Writes the first `count` queued messages as one chunk; when the stream is full, pauses stdin until 'drain'. */
  #write(count: number): void {
    const output = this.#output;
    if (count === 0 || output === undefined || this.#closed) return;
    const queue = this.#queue;
    const chunk = count === 1 ? `${queue[0]}\n` : `${queue.slice(0, count).join('\n')}\n`;
    if (count === queue.length) {
      this.#queue = [];
      this.#queued = 0;
    } else {
      this.#queue = queue.slice(count);
      this.#queued -= chunk.length - count;
    }
    if (this.#lastNotice >= 0) {
      this.#lastNotice = -1;
      this.#noticeAt = performance.now();
    }
    if (output.write(chunk)) return;
    this.#input?.pause?.();
    this.#draining = new Promise<void>((resolve) =>
      output.once('drain', () => {
        this.#draining = undefined;
        resolve();
        if (this.#closed) return;
        if (!this.#ended) this.#input?.resume?.();
        this.#write(this.#queue.length);
      }),
    );
  }

  /**
   * The output failed (EPIPE: the client closed stdout) or the client stopped reading:
   * close cleanly, and drop what the stream still buffers so the process can exit.
   */
  #outputFailed(error: Error): void {
    if (this.#closed) return;
    this.#queue = [];
    this.#queued = 0;
    void this.#report(error);
    this.#output?.destroy?.();
    this.close()
      .then(() => this.#notifyClosed())
      .catch((failure: unknown) => this.#report(asError(failure)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#restoreConsole?.();
    // Hand what is still queued to the stream without waiting for 'drain':
    // a client that stopped reading must not keep shutdown waiting forever.
    if (this.#queue.length > 0 && this.#output) {
      const chunk = this.#queue.join('\n') + '\n';
      this.#queue = [];
      this.#queued = 0;
      this.#output.write(chunk);
    }
    const input = this.#input;
    const listeners = this.#listeners;
    if (input?.off && listeners) {
      input.off('data', listeners.data);
      input.off('end', listeners.end);
      input.off('error', listeners.error);
    }
    if (input !== undefined && input === (process.stdin as unknown)) input.pause?.();
  }
}

/** A notification or request (anything with a method), as opposed to a response. */
function isOutgoingNotice(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'method' in message;
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
