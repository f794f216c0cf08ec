#!/usr/bin/env node
/**
 * Builds dist/ when it is missing, is not the bundled build, or is older than a
 * source file or the bundler: `npm start` and the test setup run it, since no
 * install script builds the package any more (a `prepare` script made every
 * consumer's npm install warn about install scripts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir, accept) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, accept));
    else if (accept(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Why dist/ under `root` needs a build, or undefined when it is up to date. */
export function staleReason(root = ROOT) {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'index.js'))) return 'dist/ is missing';
  // No shared chunk: a plain tsc output, not `npm run build`'s bundle.
  if (!existsSync(join(dist, 'chunks'))) return 'dist/ is not the bundled build';
  const source = Math.max(
    newestMtime(join(root, 'src'), (name) => name.endsWith('.ts') && !name.endsWith('.test.ts')),
    statSync(join(root, 'scripts', 'bundle.mjs')).mtimeMs,
  );
  // tsc rewrites every output on each build, so the entry point's mtime is the build time.
  return source > statSync(join(dist, 'index.js')).mtimeMs ? 'dist/ is older than src/' : undefined;
}

/** Runs `npm run build` in `root` when dist/ is stale, saying why first. */
export function buildIfStale(root = ROOT) {
  const reason = staleReason(root);
  if (reason === undefined) return false;
  process.stderr.write(`${reason}: building it (npm run build)\n`);
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' });
  return true;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    buildIfStale();
  } catch {
    process.exitCode = 1; // the build printed its own error
  }
}
