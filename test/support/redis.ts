/**
 * A private redis-server per test file (or suite): its own temp dir, no
 * persistence, a free port on 127.0.0.1 plus a unix socket. Stopped by its PID.
 * `stop()` then `start()` brings it back on the SAME address (a Redis outage
 * mid-run); `freeze()`/`thaw()` make it hang without closing connections.
 *
 * When redis-server is missing, test/support/global-setup.ts installs it where it
 * can (root on Debian); otherwise `startRedis` fails with the command to run.
 * Never skipped silently.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export const REDIS_INSTALL_COMMAND = 'sudo apt-get update && sudo apt-get install -y redis-server';

/** The redis-server binary: MCPKIT_REDIS_SERVER, else the first on the PATH. */
export function findRedisServer(): string | undefined {
  const explicit = process.env['MCPKIT_REDIS_SERVER'];
  if (explicit !== undefined && explicit !== '') return explicit;
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface RedisServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** `redis://127.0.0.1:<port>` (what REDIS_URL would be). */
  readonly url: string;
  /** The unix socket path (node-redis: `socket: { path }`). */
  readonly socketPath: string;
  /** The running process id, undefined while stopped. */
  readonly pid: number | undefined;
  readonly running: boolean;
  /** Starts it again on the same port and socket (after `stop`). */
  start(): Promise<void>;
  /** Stops it by PID: SIGTERM by default, SIGKILL to simulate a crash. Resolves once it exited. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing answers (commands hang until a timeout). */
  freeze(): void;
  /** SIGCONT after `freeze`. */
  thaw(): void;
  /** One command over a fresh connection; answers the raw RESP reply (for tests that inspect Redis). */
  command(...args: string[]): Promise<string>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A worker that exits without afterAll (crash, timeout) must not leave servers behind.
  process.on('exit', () => {
    for (const child of live) if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  });
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Where the RESP value starting at `at` ends, or -1 while incomplete. */
function respEnd(text: string, at: number): number {
  const line = text.indexOf('\r\n', at);
  if (line < 0) return -1;
  const type = text[at];
  const n = Number(text.slice(at + 1, line));
  if (type === '$') return n < 0 ? line + 2 : text.length >= line + 2 + n + 2 ? line + 2 + n + 2 : -1;
  if (type !== '*') return line + 2;
  let end = line + 2;
  for (let i = 0; i < n && end >= 0; i++) end = respEnd(text, end);
  return end;
}

/** Sends one command in RESP over a fresh connection and answers its raw reply. */
export function rawCommand(port: number, args: string[], timeoutMs = 2_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis on port ${port} did not answer ${args[0]} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('latin1'); // one char per byte, so bulk lengths count right
    socket.on('connect', () => {
      socket.write(`*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`);
    });
    socket.on('data', (chunk: string) => {
      reply += chunk;
      if (respEnd(reply, 0) < 0) return;
      clearTimeout(timer);
      socket.end();
      resolve(reply);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

async function waitUntilAnswering(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server exited at start (${child.exitCode ?? child.signalCode}):\n${output()}`);
    try {
      if ((await rawCommand(port, ['PING'], 500)).startsWith('+PONG')) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within 10 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function startRedis(): Promise<RedisServer> {
  const binary = findRedisServer();
  if (binary === undefined) {
    throw new Error(`redis-server is not on the PATH; the Redis tests need it. Install it with:\n  ${REDIS_INSTALL_COMMAND}\n(or set MCPKIT_REDIS_SERVER to its path)`);
  }
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-redis-'));
  const socketPath = join(dir, 'redis.sock');
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async (): Promise<void> => {
    if (child !== undefined) throw new Error('redis-server is already running');
    let output = '';
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--unixsocket', socketPath, '--unixsocketperm', '700', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'];
    const spawned = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = spawned;
    live.add(spawned);
    spawned.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    spawned.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise<void>((resolve) => {
      spawned.once('exit', () => {
        live.delete(spawned);
        if (child === spawned) child = undefined;
        resolve();
      });
    });
    spawned.once('error', (error) => (output += String(error)));
    try {
      await waitUntilAnswering(port, spawned, () => output);
    } catch (error) {
      if (spawned.pid !== undefined && spawned.exitCode === null) spawned.kill('SIGKILL');
      await exited;
      throw error;
    }
  };

  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> => {
    const running = child;
    if (running?.pid === undefined) return;
    // A frozen process ignores SIGTERM until continued.
    process.kill(running.pid, 'SIGCONT');
    process.kill(running.pid, signal);
    await exited;
  };

  const signal = (name: 'SIGSTOP' | 'SIGCONT'): void => {
    if (child?.pid === undefined) throw new Error('redis-server is not running');
    process.kill(child.pid, name);
  };

  await start();
  return {
    host: '127.0.0.1',
    port,
    url: `redis://127.0.0.1:${port}`,
    socketPath,
    get pid() {
      return child?.pid;
    },
    get running() {
      return child !== undefined;
    },
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    command: (...args) => rawCommand(port, args),
    async close() {
      await stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
