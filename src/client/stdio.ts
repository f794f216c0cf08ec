/**
 * stdio, client side: spawns the server, writes NDJSON to its stdin, reads
 * NDJSON from its stdout. Shutdown is graceful: close stdin, SIGTERM after a
 * grace, SIGKILL after another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { isPlainObject, type JsonRpcMessage } from '../jsonrpc/message.js';
import { McpTransportError } from './errors.js';
import { SENT, type ClientTransport, type TransportPeer, type TransportSink } from './transport.js';

export interface StdioOptions {
  command: string;
  args?: string[];
  /** Added to the parent's environment (`inheritEnv: false`: replaces it). */
  env?: Record<string, string | undefined>;
  inheritEnv?: boolean;
  cwd?: string;
  /** Each chunk of the child's stderr (default: dropped; the tail is kept for error messages). */
  onStderr?: (text: string) => void;
  /** The child exited (code or signal), whether asked to or not. */
  onExit?: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void;
  /** How long to wait after closing stdin before SIGTERM, and after SIGTERM before SIGKILL (default 2000 ms each). */
  graceMs?: number;
  /** Longest line accepted on stdout (default 16 MiB). */
  maxLineBytes?: number;
}

export class StdioClientTransport implements ClientTransport {
  /** A line on stdin has no headers and no stream of its own: cancelling is `notifications/cancelled`. */
  readonly readsOutboundInfo = false;
  #child: ChildProcess | undefined;
  #sink: TransportSink | undefined;
  #stderrTail = '';
  #closing = false;
  #exited: Promise<void> | undefined;
  readonly #options: StdioOptions;

  constructor(options: StdioOptions) {
    this.#options = options;
  }

  peer(): TransportPeer {
    return { transport: 'pipe' };
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The last lines the child wrote to stderr (at most 4 KiB). */
  get stderrTail(): string {
    return this.#stderrTail;
  }

  async start(sink: TransportSink): Promise<void> {
    this.#sink = sink;
    const o = this.#options;
    const env = o.inheritEnv === false ? o.env : { ...process.env, ...o.env };
    const child = spawn(o.command, o.args ?? [], { stdio: ['pipe', 'pipe', 'pipe'], cwd: o.cwd, env: env as NodeJS.ProcessEnv, windowsHide: true });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('close', () => resolve()));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderrTail = (this.#stderrTail + chunk).slice(-4096);
      o.onStderr?.(chunk);
    });
    this.#readLines(child);
    child.stdin.on('error', () => undefined); // EPIPE after the child died: reported by 'exit'
    child.once('exit', (code, signal) => {
      o.onExit?.({ code, signal });
      if (this.#closing) return void this.#sink?.closed();
      const tail = this.#stderrTail.trimEnd().split('\n').slice(-15).join('\n');
      this.#sink?.closed(new McpTransportError('unreachable', `The server process exited (${signal ?? `code ${code}`})${tail ? `; its stderr:\n${tail}` : ''}`));
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(new McpTransportError('unreachable', `Could not start ${o.command}: ${error.message}`, { cause: error })));
    });
  }

  /**
   * Lines are cut from the Buffers as they come and each is decoded once (no stream decoder, no
   * string concatenation per chunk); only a line split across chunks is joined, and that part is
   * bounded by `maxLineBytes` (its bytes), past which the rest of the line is skipped.
   */
  #readLines(child: ChildProcess): void {
    const max = this.#options.maxLineBytes ?? 16 * 1024 * 1024;
    let parts: Buffer[] = [];
    let size = 0;
    let skipping = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        if (skipping) skipping = false;
        else if (size === 0) this.#line(chunk.toString('utf8', start, nl));
        else {
          parts.push(chunk.subarray(start, nl));
          const line = Buffer.concat(parts, size + nl - start).toString('utf8');
          parts = [];
          size = 0;
          this.#line(line);
        }
        start = nl + 1;
      }
      if (skipping || start === chunk.length) return;
      parts.push(start === 0 ? chunk : chunk.subarray(start));
      size += chunk.length - start;
      if (size > max) {
        parts = [];
        size = 0;
        skipping = true;
        this.#sink?.message({ invalid: `a line longer than maxLineBytes (${max}) on the server's stdout` });
      }
    });
  }

  #line(line: string): void {
    let message: unknown;
    try {
      // JSON.parse skips the whitespace around a value (a CR before the LF too), so no trim per line.
      message = JSON.parse(line);
    } catch {
      message = this.#trimmed(line);
      if (message === undefined) return;
    }
    // A response: one request fewer awaiting its answer (see #unanswered).
    if (this.#unanswered > 0 && isPlainObject(message) && message['id'] !== undefined && message['method'] === undefined) this.#unanswered--;
    this.#sink?.message(message);
  }

  /** A line JSON.parse refused: blank (skipped), JSON behind whitespace it does not skip (a BOM), or not JSON (reported). */
  #trimmed(line: string): unknown {
    const text = line.trim();
    if (text === '') return undefined;
    if (text !== line) {
      try {
        return JSON.parse(text);
      } catch {
        // reported below
      }
    }
    this.#sink?.message({ invalid: `a line that is not JSON on the server's stdout (stdout carries only protocol messages): ${JSON.stringify(text.slice(0, 200))}` });
    return undefined;
  }

  /** Lines sent this event-loop turn, written to stdin as one string at its end (one write, one pipe wake-up). */
  #queued: string | undefined;
  #draining: Promise<void> | undefined;
  /**
   * Requests written whose response has not been read (a request never answered keeps it up: that
   * only means batching). At 0 nothing else is in flight, as with calls one after another: the line
   * is written at once, without the setImmediate (an Immediate, a check-phase callback and a tick
   * run per call) that batching costs; with requests in flight, lines of one turn are batched.
   */
  #unanswered = 0;

  send(message: JsonRpcMessage): Promise<void> {
    const child = this.#child;
    if (child === undefined || this.#closing || child.exitCode !== null || child.signalCode !== null || !child.stdin!.writable) {
      return Promise.reject(new McpTransportError('closed', 'The server process is not running'));
    }
    const line = `${JSON.stringify(message)}\n`;
    const request = 'method' in message && 'id' in message;
    if (this.#queued !== undefined) this.#queued += line;
    else if (this.#unanswered === 0) this.#write(child.stdin!, line);
    else {
      this.#queued = line;
      setImmediate(() => this.#flush(child));
    }
    if (request) this.#unanswered++;
    // A full pipe holds the sender back until the child has read (bounded memory, as before).
    return this.#draining ?? SENT;
  }

  #flush(child: ChildProcess): void {
    const text = this.#queued;
    this.#queued = undefined;
    if (text !== undefined) this.#write(child.stdin!, text);
  }

  #write(stdin: Writable, text: string): void {
    if (!stdin.writable) return;
    if (!stdin.write(text) && this.#draining === undefined) {
      this.#draining = new Promise<void>((resolve) => {
        const done = (): void => {
          stdin.off('drain', done).off('close', done);
          this.#draining = undefined;
          resolve();
        };
        stdin.on('drain', done).on('close', done);
      });
    }
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (child === undefined || this.#closing) return this.#exited;
    this.#closing = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const grace = this.#options.graceMs ?? 2000;
    this.#flush(child); // what was sent this turn (a last notifications/cancelled) still goes
    child.stdin!.end();
    const term = setTimeout(() => child.kill('SIGTERM'), grace);
    const kill = setTimeout(() => child.kill('SIGKILL'), grace * 2);
    await this.#exited;
    clearTimeout(term);
    clearTimeout(kill);
  }
}
