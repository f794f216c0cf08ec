/**
 * Vitest global setup: the spawned-process and interop tests run the built
 * package (`dist/`), so build it once when it is missing or older than `src/`.
 * The Redis tests need redis-server: installed here, once, where that is
 * possible (root on Debian); otherwise test/support/redis.ts fails with the command.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { findRedisServer } from './redis.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newestMtime(dir: string, accept: (name: string) => boolean): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, accept));
    else if (accept(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** True when dist is missing, is not the bundled build, or some non-test source file (or the bundler script) changed after the last build. */
export function distIsStale(): boolean {
  const dist = join(root, 'dist');
  // No shared chunk: a plain tsc output, not `npm run build`'s bundle.
  if (!existsSync(join(dist, 'index.js')) || !existsSync(join(dist, 'chunks'))) return true;
  const source = Math.max(
    newestMtime(join(root, 'src'), (name) => name.endsWith('.ts') && !name.endsWith('.test.ts')),
    statSync(join(root, 'scripts', 'bundle.mjs')).mtimeMs,
  );
  // tsc rewrites every output on each build, so the entry point's mtime is the build time.
  const built = statSync(join(dist, 'index.js')).mtimeMs;
  return source > built;
}

/** Installs redis-server with apt-get when it is missing and this is root on a Debian-based machine. */
export function ensureRedisServer(): void {
  if (findRedisServer() !== undefined) return;
  if (process.getuid?.() !== 0 || !existsSync('/etc/debian_version') || !existsSync('/usr/bin/apt-get')) return;
  process.stderr.write('redis-server is missing: installing it with apt-get (the Redis tests need it)\n');
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-o', 'DPkg::Lock::Timeout=300'], { stdio: ['ignore', 'inherit', 'inherit'], env });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=300', 'redis-server'], { stdio: ['ignore', 'inherit', 'inherit'], env });
  } catch (error) {
    // startRedis() then fails in the Redis tests with the command to run.
    process.stderr.write(`installing redis-server failed: ${String(error)}\n`);
  }
}

export default function setup(): void {
  ensureRedisServer();
  if (!distIsStale()) return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}
