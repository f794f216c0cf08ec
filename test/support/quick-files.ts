/**
 * The test files that work in their own process only (no Redis, no browser, no
 * build of dist/, no spawned server or npm install), chosen by what each file and
 * the support files it imports do rather than by a list, so a test added or moved
 * lands on the right side. `npm run test:quick` runs these; `npm test` runs them
 * with the rest, every file in one shared process per worker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/** What makes a file slow or needy: a child process, the built package, Redis, Chromium. */
const NEEDS = /\b(?:spawn|spawnSync|execFile|execFileSync|execSync|fork)\(|['"`](?:\.\.?\/)*dist[/'"]|startRedis|chromium/i;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** True when `file`, or a local module it imports, needs what the quick run leaves out. */
function needy(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  if (NEEDS.test(text)) return true;
  // Test helpers (../support/*.ts, ./support.ts, fixtures) may start what the test itself does not name; src/ is library code.
  for (const match of text.matchAll(/from '(\.\.?\/[^']+)\.js'/g)) {
    const target = normalize(join(dirname(file), `${match[1]}.ts`));
    if (target.startsWith('test/') && needy(target, seen)) return true;
  }
  return false;
}

/** Every test file of the repository (paths relative to its root, the working directory of vitest). */
export const allTestFiles = (): string[] => [...testFiles('src'), ...testFiles('test')].sort();

export const quickFiles = (): string[] => allTestFiles().filter((file) => !needy(file));
