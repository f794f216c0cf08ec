/**
 * `npm run test:quick`: the edit loop. The test files that work in their own
 * process only (no Redis, no browser, no build of dist/, no spawned server or
 * npm install), chosen by what each file and the support files it imports do
 * rather than by a list, so a test added or moved lands on the right side.
 * `npm test` still runs everything.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

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

export const quickFiles = (): string[] => [...testFiles('src'), ...testFiles('test')].sort().filter((file) => !needy(file));

export default defineConfig({
  test: {
    ...base.test,
    include: quickFiles(),
    // Nothing here needs dist/ or redis-server: no build, no install.
    globalSetup: [],
    // Most of a quick file's time is importing src/ and the SDKs again in a fresh process: one
    // process per worker keeps them loaded (npm test keeps every file isolated).
    isolate: false,
  },
});
