/**
 * The built package (scripts/bundle.mjs after tsc): each export is one bundled file, the code
 * they share is one chunk, and nothing else under dist/ can be loaded beside them, so two entries
 * never hold two copies of a class. dist/ is built once by the global setup.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const DIST = join(ROOT, 'dist');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { default: string }> };
const entries = Object.entries(pkg.exports)
  .filter(([key]) => key !== './package.json')
  .map(([key, target]) => ({ key, file: join(ROOT, typeof target === 'string' ? target : target.default) }));

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return jsFiles(full);
    return entry.name.endsWith('.js') ? [full] : [];
  });
}

const load = (file: string): Promise<Record<string, unknown>> => import(pathToFileURL(file).href) as Promise<Record<string, unknown>>;

describe('the bundled dist/', () => {
  it('holds the export entries, the shared chunks and the CLI, and no other JavaScript', () => {
    const allowed = new Set(entries.map((e) => relative(DIST, e.file)));
    const stray = jsFiles(DIST)
      .map((file) => relative(DIST, file))
      .filter((file) => !allowed.has(file) && !file.startsWith('chunks/') && !file.startsWith('cli/'));
    expect(stray).toEqual([]);
    expect(readdirSync(join(DIST, 'chunks')).some((file) => file.startsWith('shared-'))).toBe(true);
  });

  it('gives every entry the same object for a name two entries export', async () => {
    const seen = new Map<string, { key: string; value: unknown }>();
    let shared = 0;
    for (const { key, file } of entries) {
      for (const [name, value] of Object.entries(await load(file))) {
        const first = seen.get(name);
        if (first === undefined) {
          seen.set(name, { key, value });
          continue;
        }
        shared += 1;
        expect(value, `${name} from ${key} and ${first.key}`).toBe(first.value);
      }
    }
    // StdioTransport from mcpkit and mcpkit/stdio, InvalidTokenError from mcpkit and mcpkit/auth, …: the check above compared something.
    expect(shared).toBeGreaterThanOrEqual(4);
  });

  it('keeps the names of exported classes and functions (keepNames)', async () => {
    const renamed: string[] = [];
    for (const { key, file } of entries) {
      for (const [name, value] of Object.entries(await load(file))) {
        if (typeof value === 'function' && value.name !== name) renamed.push(`${key}: ${name} is named ${value.name}`);
      }
    }
    expect(renamed).toEqual([]);
  });
});
