// Process plumbing: spawn servers we own, read their CPU time from /proc, wait
// for ports, and kill only what we started, by PID.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import os from 'node:os';

export const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const serversDir = path.join(benchDir, 'servers');
export const rootDir = path.dirname(benchDir);

let clkTck = 100;
try {
  clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  /* keep 100 */
}
export const CLK_TCK = clkTck;

/** utime and stime of a process (all its threads), in microseconds. Fields 14 and 15 of /proc/<pid>/stat. */
export function cpuSplitMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), so field n is rest[n - 3].
  return { user: (Number(rest[11]) * 1e6) / CLK_TCK, system: (Number(rest[12]) * 1e6) / CLK_TCK };
}

/** utime + stime of a process (all its threads), in microseconds. */
export function cpuMicros(pid) {
  const { user, system } = cpuSplitMicros(pid);
  return user + system;
}

const live = new Set();

/**
 * CPU pinning: the harness (load generator) on CPU 0, every server on CPU 1, so
 * client and server never share a core and the scheduler cannot flip between
 * same-core and cross-core wake-ups from one process to the next (that flip
 * makes sequential latency bimodal on a 2-core machine). Off with --no-pin or
 * where taskset is missing or there is a single CPU.
 */
export const pinning = { enabled: false, harnessCpu: 0, serverCpu: 1 };

export function enablePinning() {
  try {
    if (os.availableParallelism() < 2) return false;
    execFileSync('taskset', ['-a', '-p', '-c', String(pinning.harnessCpu), String(process.pid)], { stdio: 'ignore' });
    pinning.enabled = true;
  } catch {
    pinning.enabled = false;
  }
  return pinning.enabled;
}

/** Spawns `node [nodeArgs] servers/<file> [args]` and remembers it so it can be killed on exit. */
export function spawnServer(file, args = [], { nodeArgs = [], stdout = 'pipe' } = {}) {
  const argv = [...nodeArgs, path.join(serversDir, file), ...args];
  // taskset execs node in place, so child.pid is the server's own PID.
  const [cmd, cmdArgs] = pinning.enabled ? ['taskset', ['-c', String(pinning.serverCpu), process.execPath, ...argv]] : [process.execPath, argv];
  const child = spawn(cmd, cmdArgs, {
    cwd: serversDir,
    stdio: ['pipe', stdout, 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  live.add(child);
  child.stderrTail = '';
  child.memLines = [];
  child.stderr.setEncoding('utf8');
  let partial = '';
  child.stderr.on('data', (d) => {
    child.stderrTail = (child.stderrTail + d).slice(-4000);
    partial += d;
    let nl;
    while ((nl = partial.indexOf('\n')) !== -1) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      if (line.startsWith('MEM ')) {
        const m = JSON.parse(line.slice(4));
        child.memLines.push(m);
        child.onMem?.(m);
      }
    }
  });
  child.exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      live.delete(child);
      child.exitCode_ = code;
      resolve({ code, signal });
    });
  });
  child.on('error', () => {});
  child.stdin?.on('error', () => {});
  return child;
}

/** Ends a child we started: SIGTERM, then SIGKILL after a grace period. */
export async function stop(child, graceMs = 1500) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const t = setTimeout(() => {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, graceMs);
  await child.exited;
  clearTimeout(t);
}

export function killAllStarted() {
  for (const child of live) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** Asks the server for its memory after GC (SIGUSR2 → `MEM {...}` on stderr). */
export function probeMemory(child, timeoutMs = 10000) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      child.onMem = undefined;
      reject(new Error('no MEM line from server'));
    }, timeoutMs);
    child.onMem = (m) => {
      clearTimeout(t);
      child.onMem = undefined;
      resolve(m);
    };
    process.kill(child.pid, 'SIGUSR2');
  });
}

/** A free loopback port (bind :0, read, close). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:port accepts a connection; rejects if the child exits or the time runs out. */
export async function waitForPort(port, child, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const err = new Error(`server exited (code ${child.exitCode}) before listening: ${child.stderrTail.trim().slice(-600)}`);
      err.exitCode = child.exitCode;
      throw err;
    }
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`server did not listen on ${port} within ${timeoutMs} ms`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
