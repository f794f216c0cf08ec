/**
 * Process lifetime for long-running commands: stop on SIGINT/SIGTERM/SIGHUP,
 * and stop when the process that launched us is gone. A killed `npm start` or
 * `npx` would otherwise leave us orphaned and still listening; npm runs
 * scripts through `sh -c`, which survives npm, so on Linux the shell's own
 * parent is watched too.
 */
import { readFileSync } from 'node:fs';

/** The parent pid of `pid` and the name of its program, from /proc (Linux); undefined elsewhere. */
function procStat(pid: number): { ppid: number; comm: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(stat.slice(close + 2).split(' ')[1]) };
  } catch {
    return undefined;
  }
}

/** A check that turns true once whoever launched this process has exited. */
function orphanCheck(): () => boolean {
  const parent = process.ppid;
  const shell = procStat(parent);
  const launcher = shell && /^(sh|bash|dash|zsh|ash)$/.test(shell.comm) ? shell.ppid : undefined;
  return () => process.ppid !== parent || (launcher !== undefined && procStat(parent)?.ppid !== launcher);
}

// Who launched us is read when this module loads, at the start of the command: a launcher
// killed while the server was still starting would otherwise go unnoticed.
const orphaned = orphanCheck();

export function onShutdown(stop: (reason: string) => Promise<void> | void): void {
  if (orphaned()) {
    void Promise.resolve(stop('launcher exited')).finally(() => process.exit(0));
    return;
  }
  let stopping = false;
  const run = (reason: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    void Promise.resolve()
      .then(() => stop(reason))
      .catch((error: unknown) => console.error(`mcpkit: while stopping: ${String(error)}`))
      .finally(() => process.exit(0));
  };
  const watch = setInterval(() => {
    if (orphaned()) run('launcher exited');
  }, 500);
  watch.unref();
  process.once('SIGINT', () => run('SIGINT'));
  process.once('SIGTERM', () => run('SIGTERM'));
  process.once('SIGHUP', () => run('SIGHUP'));
}
