/**
 * Drives the `mcpkit` command as a user does: a spawned `node bin/mcpkit.js …`
 * (the built CLI in dist/), real files in a temp directory, exit codes.
 */
import { eventually as pollUntil } from '../support/eventually.js';
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'mcpkit.js');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
}

/** `mcpkit <args>` to completion. */
export function mcpkit(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return run(process.execPath, [BIN, ...args], options);
}

export function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: 'pipe' });
  track(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A long-running `mcpkit <args>`; stderr is collected and can be waited on. */
export interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stderr. */
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray>;
  readonly exited: Promise<number | null>;
}

export function start(command: string, args: string[], options: RunOptions = {}): Running {
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: 'pipe' });
  track(child);
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stderr: () => stderr,
    exited,
    waitForStderr(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stderr.match(pattern);
          if (match) resolve(match);
          else if (child.exitCode !== null) reject(new Error(`exited (${child.exitCode}) before ${pattern}:\n${stderr}`));
          else waiters.push(check);
        };
        child.once('exit', () => {
          for (const w of waiters.splice(0)) w();
        });
        check();
      });
    },
  };
}

export const startMcpkit = (args: string[], options?: RunOptions): Running => start(process.execPath, [BIN, ...args], options);

const children = new Set<ChildProcess>();
function track(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** SIGKILLs every process these helpers started that is still running. */
export async function killAll(): Promise<void> {
  await Promise.all([...children].map((child) => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  })));
}

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `mcpkit-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** True while something accepts TCP connections on 127.0.0.1:port. */
export async function isListening(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `condition` every 100 ms until it holds, for at most 30 s (processes start slowly on a loaded machine). */
export function eventually(condition: () => Promise<boolean> | boolean, everyMs = 100): Promise<void> {
  return pollUntil(condition, { everyMs, deadlineMs: 30_000, message: 'the CLI condition' });
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Newline-delimited JSON for a stdio server's stdin. */
export const ndjson = (...messages: unknown[]): string => messages.map((m) => `${JSON.stringify(m)}\n`).join('');

/** Every stdout line parsed as JSON (throws on anything else: stdio servers may write nothing but messages). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire messages, asserted field by field
export const parseLines = (stdout: string): Record<string, any>[] => stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));

export const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
export const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
