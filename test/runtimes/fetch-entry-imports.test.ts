/**
 * What a Worker bundle of `mcpkit` + `mcpkit/http` asks the runtime for: the built entries and every
 * chunk they load import no `node:` module, statically or dynamically (a bundler resolves a literal
 * `import('node:…')` too, and refuses it without nodejs_compat). Node built-ins are reached only
 * through process.getBuiltinModule (src/util/builtin.ts), which a runtime without them does not have.
 * dist/ is built by the global setup.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const DIST = join(ROOT, 'dist');

/** Every module specifier in `source`: static imports and re-exports, dynamic imports, require calls. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s*(?:[^'"`;]*?\sfrom\s*)?["']([^"']+)["']/g, /\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g, /\brequire\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/** The files `entry` loads (itself included) and the bare or node: specifiers among their imports. */
function graph(entry: string): { files: string[]; external: Map<string, string[]> } {
  const files: string[] = [];
  const external = new Map<string, string[]>();
  const queue = [resolve(DIST, entry)];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.includes(file)) continue;
    files.push(file);
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else external.set(specifier, [...(external.get(specifier) ?? []), relative(DIST, file)]);
    }
  }
  return { files, external };
}

describe('the fetch entry on a runtime without Node built-ins', () => {
  it('finds the imports it looks for (the scan is not vacuous)', () => {
    expect(specifiers(`import "./a.js"; import { x as y } from "node:fs"; export { z } from './b.js'; await import("node:http"); require('node:os')`)).toEqual([
      './a.js',
      'node:fs',
      './b.js',
      'node:http',
      'node:os',
    ]);
    // The node-only entries do import built-ins, and the scan sees them.
    expect([...graph('redis.js').external.keys()].some((s) => s.startsWith('node:'))).toBe(true);
    expect(graph('http.js').files.length).toBeGreaterThan(1);
  });

  it.each(['http.js', 'index.js'])('dist/%s and the chunks it loads import no node: module and no package', (entry) => {
    const { external } = graph(entry);
    // @cfworker/json-schema, the one runtime dependency (web-standard JavaScript), is inlined by scripts/bundle.mjs.
    expect([...external.keys()], JSON.stringify(Object.fromEntries(external))).toEqual([]);
  });

  it('reaches Node built-ins only through process.getBuiltinModule', () => {
    const { files } = graph('http.js');
    const builtins = new Set<string>();
    for (const file of files) for (const match of readFileSync(file, 'utf8').matchAll(/["'](node:[a-z_/]+)["']/g)) builtins.add(match[1]!);
    // Each is looked up, never imported: buffer (a spliced preset JSON body written into one buffer, with a
    // TextEncoder fallback), crypto (hashes), diagnostics_channel (observability), http (listen()), fs and path (server.skills() reading skill folders, looked up on its first read). The chunk that the server
    // entries share now holds the server (the gateway and OpenAPI entries import it too), so http.js sees skills.
    expect([...builtins].sort()).toEqual(['node:buffer', 'node:crypto', 'node:diagnostics_channel', 'node:fs', 'node:http', 'node:path']);
  });
});
