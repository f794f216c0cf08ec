// Start / stop the server under test and the suite, each in its own process
// group, so that it and anything it spawns can be stopped by that group id alone.
import { spawn } from 'node:child_process';
import net from 'node:net';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** True if something accepts TCP connections on localhost:<port> (IPv4 or IPv6). */
export function portAcceptsConnections(port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: 'localhost', port, autoSelectFamily: true });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Spawn `command` (argv array, or a shell string) detached: on POSIX that is a
 * new session, so its process group id equals its pid. `exited` resolves with
 * { code, signal } when the leader exits.
 */
export function spawnGroup(command, { cwd, env, logFd }) {
  const options = { cwd, env, detached: true, stdio: ['ignore', logFd, logFd] };
  const child = typeof command === 'string'
    ? spawn(command, { ...options, shell: true })
    : spawn(command[0], command.slice(1), options);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
  });
  return { pid: child.pid, exited, alive: () => child.exitCode === null && child.signalCode === null };
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone
  }
}

/**
 * TERM the group, wait up to graceMs for its leader to exit, then KILL whatever
 * is left of the group. (Waiting for the whole group to empty is unreliable:
 * an orphaned zombie still counts as a member where nothing reaps it.)
 */
export async function stopGroup(group, graceMs = 5000) {
  if (!group?.pid) return;
  if (!signalGroup(group.pid, 'SIGTERM')) return;
  let timer;
  await Promise.race([group.exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  signalGroup(group.pid, 'SIGKILL');
}

/**
 * Wait until localhost:<port> accepts connections. Resolves { ok: true } or
 * { ok: false, why } if the process exits first or the deadline passes.
 */
export async function waitForPort(group, port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let exit;
  void group.exited.then((e) => (exit = e));
  while (Date.now() < deadline) {
    if (await portAcceptsConnections(port, 500)) return { ok: true };
    if (exit) {
      const how = exit.error ? `failed to start: ${exit.error.message}`
        : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      return { ok: false, why: `server ${how} before listening on localhost:${port}` };
    }
    await sleep(250);
  }
  return { ok: false, why: `server did not listen on localhost:${port} within ${Math.round(timeoutMs / 1000)} s` };
}
