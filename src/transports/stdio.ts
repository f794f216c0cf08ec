import type { McpTransport } from './transport.js';

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
}

export interface StdioTransportConfig {
  /** Defaults to process.stdin. */
  input?: ReadableLike;
  /** Defaults to process.stdout. Nothing but protocol messages is ever written to it. */
  output?: WritableLike;
  /** The longest accepted line, in UTF-16 code units (default 4 MiB). Longer lines are discarded with a -32700 error. */
  maxLineLength?: number;
}

/** Messages queued in one tick before they are written without waiting for the tick to end. */
const FLUSH_AT = 4;

export class LineTooLongError extends Error {
  override readonly name = 'LineTooLongError';
  constructor(limit: number) {
    super(`message exceeds the ${limit}-character line limit and was discarded`);
  }
}

export class InvalidJsonError extends Error {
  override readonly name = 'InvalidJsonError';
}

/**
 * Newline-delimited JSON over a pair of streams. Reads are split on `\n`
 * (CRLF and blank lines tolerated), writes are batched per tick and respect
 * backpressure. At EOF, in-flight messages finish before the transport closes.
 */
export class StdioTransport implements McpTransport {
  readonly name = 'stdio';
  onclose: (() => void) | undefined;
  readonly #config: StdioTransportConfig;
  readonly #maxLine: number;
  readonly #decoder = new TextDecoder();
  #inFlight = 0;
  #idle: (() => void) | undefined;
  #input: ReadableLike | undefined;
  #output: WritableLike | undefined;
  #buffer = '';
  #discarding = false;
  #queue: string[] = [];
  #flushScheduled = false;
  #draining: Promise<void> | undefined;
  #closed = false;
  #onMessage: ((message: unknown) => void | Promise<void>) | undefined;
  #onError: ((error: Error) => void | Promise<void>) | undefined;
  #listeners: { data: (chunk: Uint8Array | string) => void; end: () => void; error: (e: Error) => void } | undefined;

  constructor(config: StdioTransportConfig = {}) {
    this.#config = config;
    this.#maxLine = config.maxLineLength ?? 4 * 1024 * 1024;
  }

  start(onMessage: (message: unknown) => void | Promise<void>, onError?: (error: Error) => void | Promise<void>): void {
    if (this.#input) throw new Error('StdioTransport already started');
    this.#onMessage = onMessage;
    this.#onError = onError;
    this.#input = this.#config.input ?? process.stdin;
    this.#output = this.#config.output ?? (process.stdout);
    this.#listeners = {
      data: (chunk) => this.#onData(chunk),
      end: () => void this.#onEnd(),
      error: (error) => void this.#report(error),
    };
    this.#input.on('data', this.#listeners.data);
    this.#input.on('end', this.#listeners.end);
    this.#input.on('error', this.#listeners.error);
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
    void this.#dispatch(message);
  }

  /** Runs one message; a counter (not a set of promises) tracks what is in flight. */
  async #dispatch(message: unknown): Promise<void> {
    try {
      await this.#onMessage?.(message);
    } catch (error) {
      await this.#report(error instanceof Error ? error : new Error(String(error)));
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

  async #onEnd(): Promise<void> {
    const rest = this.#buffer + this.#decoder.decode();
    this.#buffer = '';
    if (!this.#discarding && rest.trim().length > 0) this.#line(rest);
    // In-flight requests finish (and their answers are written) before we close.
    if (this.#inFlight > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
    await this.#flush();
    await this.close();
    this.onclose?.();
  }

  send(message: unknown): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#queue.push(JSON.stringify(message));
    // Batch per tick, but not too much: a client reading the first answers
    // while we still work on the rest keeps both sides busy.
    if (this.#queue.length >= FLUSH_AT && this.#draining === undefined) {
      void this.#flush();
    } else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flushScheduled = false;
        void this.#flush();
      });
    }
    return this.#draining ?? Promise.resolve();
  }

  /** Writes everything queued as one chunk; waits for 'drain' when the stream is full. */
  async #flush(): Promise<void> {
    if (this.#draining) await this.#draining;
    if (this.#queue.length === 0 || !this.#output) return;
    const chunk = this.#queue.join('\n') + '\n';
    this.#queue = [];
    const output = this.#output;
    if (!output.write(chunk)) {
      this.#draining = new Promise<void>((resolve) => output.once('drain', resolve)).finally(() => {
        this.#draining = undefined;
      });
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Hand what is still queued to the stream without waiting for 'drain':
    // a client that stopped reading must not keep shutdown waiting forever.
    if (this.#queue.length > 0 && this.#output) {
      const chunk = this.#queue.join('\n') + '\n';
      this.#queue = [];
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
