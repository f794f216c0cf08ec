/**
 * Vitest global setup: the spawned-process and interop tests run the built
 * package (`dist/`), so build it once when it is missing or older than `src/`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

/** True when dist is missing or some non-test source file changed after the last build. */
export function distIsStale(): boolean {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'index.js'))) return true;
  const source = newestMtime(join(root, 'src'), (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  // tsc rewrites every output on each build, so the entry point's mtime is the build time.
  const built = statSync(join(dist, 'index.js')).mtimeMs;
  return source > built;
}

export default function setup(): void {
  if (!distIsStale()) return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}
