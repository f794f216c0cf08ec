/**
 * The repository's own scripts load mcpkit as `npm run build` leaves it. The build bundles the library
 * (scripts/bundle.mjs): dist/ holds the entry files, dist/chunks and dist/cli, and no longer one .js
 * per source file. Every dist/ file that bench/, examples/, scripts/ or test/ names must exist, and
 * the modules bench/features.bench.mjs loads from its own tsc output must exist in src/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(full);
    return /\.(mjs|js|ts)$/.test(entry.name) ? [full] : [];
  });
}

const SELF = fileURLToPath(import.meta.url);
const files = ['bench', 'examples', 'scripts', 'test'].flatMap((dir) => sources(path.join(ROOT, dir))).filter((file) => file !== SELF);
const rel = (file: string) => path.relative(ROOT, file);

describe('dist/ paths named in the repository', () => {
  it('exist after the build (relative imports and `${dist}/…` paths)', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/['"`]((?:\.\.\/)+dist\/[^'"`$]+)['"`]/g)) {
        if (!fs.existsSync(path.resolve(path.dirname(file), spec!))) missing.push(`${rel(file)}: ${spec}`);
      }
      for (const [, spec] of text.matchAll(/\$\{dist\}\/([^'"`$]+)['"`]/g)) {
        if (!fs.existsSync(path.join(ROOT, 'dist', spec!))) missing.push(`${rel(file)}: \${dist}/${spec}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('bench/features.bench.mjs loads modules that src/ has', () => {
    const text = fs.readFileSync(path.join(ROOT, 'bench/features.bench.mjs'), 'utf8');
    const loaded = [...text.matchAll(/\bload\('([^']+)\.js'\)/g)].map(([, module]) => module!);
    expect(loaded.length).toBeGreaterThan(3);
    expect(loaded.filter((module) => !fs.existsSync(path.join(ROOT, 'src', `${module}.ts`)))).toEqual([]);
  });
});
