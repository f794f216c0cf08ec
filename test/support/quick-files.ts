/**
 * The test files that work in their own process only (no Redis, no browser, no
 * build of dist/, no spawned server or npm install), chosen by what each file and
 * the support files it imports do rather than by a list, so a test added or moved
 * lands on the right side. `npm run test:quick` runs these; `npm test` runs them
 * with the rest, every file in one shared process per worker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * What makes a file slow or needy: a child process (called, or a stdio transport's `command:`), the
 * built package (dist/, or the package's own name, which resolves to it; the .mjs fixtures are
 * spawned or import it), Redis, Chromium.
 */
const NEEDS = /\b(?:spawn|spawnSync|execFile|execFileSync|execSync|fork)\(|\bcommand:\s|['"`](?:\.\.?\/)*dist[/'"]|['"`]mcpkit(?:\/[\w-]+)*['"`]|\.mjs['"`]|startRedis|chromium/i;

const SELF = 'test/support/quick-files.ts';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** True when `file`, or a local module it imports, needs what the quick run leaves out. */
function needy(file: string, seen = new Set<string>()): boolean {
  // This module names what it looks for; its own test imports it and needs none of it.
  if (seen.has(file) || file === SELF) return false;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  if (NEEDS.test(text)) return true;
  // Test helpers (../support/*.ts, ./support.ts, fixtures) may start what the test itself does not
  // name, and examples/ import the package by name; src/ is library code.
  for (const match of text.matchAll(/from '(\.\.?\/[^']+)\.js'/g)) {
    const target = normalize(join(dirname(file), match[1] ?? ''));
    if (target.startsWith('test/') && needy(`${target}.ts`, seen)) return true;
    if (target.startsWith('examples/') && needy(`${target}.js`, seen)) return true;
  }
  return false;
}

/** Every test file of the repository (paths relative to its root, the working directory of vitest). */
export const allTestFiles = (): string[] => [...testFiles('src'), ...testFiles('test')].sort();

export const quickFiles = (): string[] => allTestFiles().filter((file) => !needy(file));
