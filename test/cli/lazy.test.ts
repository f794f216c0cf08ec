/**
 * `import 'mcpkit'` (any subpath) loads no CLI code, and the CLI's entry
 * loads no command until one is asked for: the static import graphs of the
 * built files say so.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Every file reached from `file` through static `import … from './x.js'` / `export … from` / `import './x.js'`. */
function staticGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/^\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?['"](\.[^'"]+)['"]/gm)) {
    staticGraph(resolve(dirname(file), match[1]!), seen);
  }
  return seen;
}

const rel = (files: Set<string>) => [...files].map((f) => relative(ROOT, f));

describe('lazy CLI', () => {
  it('no public entry point reaches dist/cli', () => {
    const entries = Object.entries(pkg.exports as Record<string, { default?: string } | string>)
      .filter(([key]) => key !== './package.json')
      .map(([, target]) => join(ROOT, typeof target === 'string' ? target : target.default!));
    expect(entries.length).toBeGreaterThan(3);
    for (const entry of entries) {
      const reached = rel(staticGraph(entry));
      expect(reached.length).toBeGreaterThan(0);
      expect(reached.filter((f) => f.startsWith('dist/cli/'))).toEqual([]);
    }
  });

  it('the CLI entry loads no command module until it runs one', () => {
    expect(rel(staticGraph(join(ROOT, 'dist/cli/main.js'))).filter((f) => f.includes('/commands/'))).toEqual([]);
  });
});
