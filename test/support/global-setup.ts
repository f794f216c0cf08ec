/**
 * Vitest global setup: the spawned-process and interop tests run the built
 * package (`dist/`), so build it once when it is missing or older than `src/`.
 * The Redis tests need redis-server: installed here, once, where that is
 * possible (root on Debian); otherwise test/support/redis.ts fails with the command.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildIfStale, staleReason } from '../../scripts/build-if-stale.mjs';
import { findRedisServer } from './redis.js';

/** True when dist is missing, is not the bundled build, or some non-test source file (or the bundler script) changed after the last build. */
export function distIsStale(): boolean {
  return staleReason() !== undefined;
}

/** Installs redis-server with apt-get when it is missing and this is root on a Debian-based machine. */
export function ensureRedisServer(): void {
  if (findRedisServer() !== undefined) return;
  if (process.env['MCPKIT_TEST_NO_INSTALL'] === '1') return;
  if (process.getuid?.() !== 0 || !existsSync('/etc/debian_version') || !existsSync('/usr/bin/apt-get')) return;
  process.stderr.write(
    'mcpkit tests: installing redis-server with `apt-get update && apt-get install -y redis-server` (root on Debian; ' +
      'test/redis and test/redis/cluster start a private one; MCPKIT_TEST_NO_INSTALL=1 skips this, and those tests then fail with the command)\n',
  );
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
  buildIfStale();
}
