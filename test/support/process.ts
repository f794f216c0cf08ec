/**
 * Spawns the fixture stdio server (test/fixtures/stdio-server.mjs, built from
 * dist/) and talks raw newline-delimited JSON to it. Every stdout line is
 * parsed and schema-validated as it arrives; stderr is kept for inspection.
 * Call `killAll()` in afterEach/afterAll.
 */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_REVISION, LineCollector } from './wire.js';

export const FIXTURE = fileURLToPath(new URL('../fixtures/stdio-server.mjs', import.meta.url));

const children = new Set<ChildProcessWithoutNullStreams>();

export interface SpawnedServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: LineCollector;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Writes one message (or a raw line when given a string) followed by a newline. */
  send(message: unknown): void;
  /** The revision outgoing messages are validated against. */
  revision: string;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
}

export function spawnFixture(env: Record<string, string> = {}): SpawnedServer {
  const child = spawn(process.execPath, [FIXTURE], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.add(child);
  const methods = new Map<unknown, string>();
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    });
  });
  const spawned: SpawnedServer = {
    child,
    lines: new LineCollector(child.stdout, () => spawned.revision, (id) => methods.get(id)),
    stderr: () => stderr,
    send(message) {
      if (typeof message === 'string') {
        child.stdin.write(`${message}\n`);
        return;
      }
      for (const item of Array.isArray(message) ? message : [message]) {
        const m = item as Record<string, unknown>;
        if (typeof m['method'] === 'string' && 'id' in m) methods.set(m['id'], m['method']);
      }
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    revision: DEFAULT_REVISION,
    exited,
  };
  return spawned;
}

/** Kills every fixture process still running (SIGKILL) and waits for them to go. */
export async function killAll(): Promise<void> {
  const running = [...children];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            resolve();
            return;
          }
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  children.clear();
}

/** Resolves with the URL in the "listening on <url>" line an HTTP example prints to stderr (it keeps reading stderr). */
export function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk) => {
      seen += String(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`the process exited before listening:\n${seen}`)));
  });
}
