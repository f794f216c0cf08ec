/**
 * stdio, client side: spawns the server, writes NDJSON to its stdin, reads
 * NDJSON from its stdout. Shutdown is graceful: close stdin, SIGTERM after a
 * grace, SIGKILL after another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import { McpTransportError } from './errors.js';
import type { ClientTransport, TransportPeer, TransportSink } from './transport.js';

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

/** The answer of a send that needs no waiting (one settled promise for all). */
const SENT = Promise.resolve();

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

  #readLines(child: ChildProcess): void {
    const max = this.#options.maxLineBytes ?? 16 * 1024 * 1024;
    let partial = '';
    let skipping = false;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
        const line = partial + chunk.slice(start, nl);
        partial = '';
        start = nl + 1;
        if (skipping) {
          skipping = false;
          continue;
        }
        this.#line(line);
      }
      if (!skipping) partial += chunk.slice(start);
      if (partial.length > max) {
        partial = '';
        skipping = true;
        this.#sink?.message({ invalid: `a line longer than maxLineBytes (${max}) on the server's stdout` });
      }
    });
  }

  #line(raw: string): void {
    const line = raw.trim();
    if (line === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.#sink?.message({ invalid: `a line that is not JSON on the server's stdout (stdout carries only protocol messages): ${JSON.stringify(line.slice(0, 200))}` });
      return;
    }
    this.#sink?.message(message);
  }

  /** Lines sent this event-loop turn, written to stdin as one string at its end (one write, one pipe wake-up). */
  #queued: string | undefined;
  #draining: Promise<void> | undefined;

  send(message: JsonRpcMessage): Promise<void> {
    const child = this.#child;
    if (child === undefined || this.#closing || child.exitCode !== null || child.signalCode !== null || !child.stdin!.writable) {
      return Promise.reject(new McpTransportError('closed', 'The server process is not running'));
    }
    const line = `${JSON.stringify(message)}\n`;
    if (this.#queued === undefined) {
      this.#queued = line;
      setImmediate(() => this.#flush(child));
    } else this.#queued += line;
    // A full pipe holds the sender back until the child has read (bounded memory, as before).
    return this.#draining ?? SENT;
  }

  #flush(child: ChildProcess): void {
    const text = this.#queued;
    this.#queued = undefined;
    const stdin = child.stdin!;
    if (text === undefined || !stdin.writable) return;
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
