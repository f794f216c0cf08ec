/**
 * The built package (scripts/bundle.mjs after tsc): each export is one bundled file, the code
 * they share is one chunk, and nothing else under dist/ can be loaded beside them, so two entries
 * never hold two copies of a class. dist/ is built once by the global setup.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
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

/** The source of a bundled file and of every chunk it imports, transitively (the code `import` of it compiles). */
function loadedSource(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return '';
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const imported = [...source.matchAll(/(?:from|import) "(\.[^"]+)"/g)].map((m) => join(file, '..', m[1]!));
  return source + imported.map((next) => loadedSource(next, seen)).join('');
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

  // Rolldown marks each module it merged with a `// dist/<path>.js` line. A stdio server's cold start is mostly
  // V8 compiling what it loads: the root entry's chunk must not carry the HTTP side the other entries share.
  it.each(['.', './stdio'])('%s loads no HTTP transport code', (key) => {
    const file = entries.find((e) => e.key === key)!.file;
    expect(loadedSource(file)).not.toMatch(/^\/\/ dist\/(transports\/http|adapters)\//m);
    expect(loadedSource(file)).toMatch(/^\/\/ dist\/transports\/stdio\.js$/m);
  });

  // One non-ASCII character makes V8 hold a whole chunk as a two-byte string (slower to import).
  it('holds only ASCII in every bundled file, and the validator inlined with its notice', () => {
    const files = jsFiles(DIST).filter((file) => !relative(DIST, file).startsWith('cli/'));
    expect(files.filter((file) => /[\u0080-\uffff]/.test(readFileSync(file, 'utf8'))).map((file) => relative(DIST, file))).toEqual([]);
    const root = loadedSource(entries.find((e) => e.key === '.')!.file);
    expect(root).not.toMatch(/from "@cfworker\/json-schema"/);
    expect(root).toMatch(/^\/\*! @cfworker\/json-schema [\d.]+, MIT License/m);
    // An ellipsis of the source survives as its escape.
    expect(root).toContain('\\u2026');
  });

  // The validator is inlined, so the package installs with no dependency: no file it ships may import one
  // (a .d.ts naming @cfworker/json-schema would leave a consumer's tsc without the types).
  it('ships no import of a package it does not declare', () => {
    const declared = new Set(Object.keys({ ...(pkg as { peerDependencies?: object }).peerDependencies, ...(pkg as { dependencies?: object }).dependencies }));
    expect((pkg as { dependencies?: object }).dependencies).toBeUndefined();
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : /\.(d\.ts|js)$/.test(entry.name) ? [join(dir, entry.name)] : []));
    })(DIST);
    const undeclared = files.flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((f) => f.fileName)
        .filter((spec) => !spec.startsWith('.') && !spec.startsWith('node:'))
        .map((spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!))
        .filter((name) => !declared.has(name) && name !== 'mcpkit')
        .map((name) => `${relative(DIST, file)}: ${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('./http loads it (the check above can fail)', () => {
    expect(loadedSource(entries.find((e) => e.key === './http')!.file)).toMatch(/^\/\/ dist\/transports\/http\/engine\.js$/m);
  });

  it('exports every name, value or type, from exactly one entry', () => {
    // The .d.ts files tsc wrote hold the types too; the checker lists what each entry exports.
    const program = ts.createProgram(
      entries.map((e) => e.file.replace(/\.js$/, '.d.ts')),
      { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true },
    );
    const checker = program.getTypeChecker();
    const owners = new Map<string, string[]>();
    for (const { key, file } of entries) {
      const source = program.getSourceFile(file.replace(/\.js$/, '.d.ts'));
      expect(source, key).toBeDefined();
      const symbol = checker.getSymbolAtLocation(source!);
      for (const exported of checker.getExportsOfModule(symbol!)) owners.set(exported.name, [...(owners.get(exported.name) ?? []), key]);
    }
    const twice = [...owners].filter(([, keys]) => keys.length > 1).map(([name, keys]) => `${name}: ${keys.join(', ')}`);
    expect(twice).toEqual([]);
    // The check read the entries: the authoring API in the root, the plumbing in mcpkit/protocol.
    expect(owners.get('McpServer')).toEqual(['.']);
    expect(owners.get('StdioTransport')).toEqual(['.']);
    expect(owners.get('classify')).toEqual(['./protocol']);
    expect(owners.get('UriTemplate')).toEqual(['./protocol']);
    // One set of wire types, in the root entry, under one name each (issue 22: no WireTool beside ToolDescription).
    for (const name of ['ToolDescription', 'McpToolResult', 'ListToolsResult', 'PromptDescription', 'ResourceDescription', 'McpResult', 'Implementation']) expect(owners.get(name), name).toEqual(['.']);
    for (const name of ['WireTool', 'WirePrompt', 'WireResource', 'WireResourceTemplate', 'CallToolResult', 'Result']) expect(owners.has(name), name).toBe(false);
    expect(owners.size).toBeGreaterThan(200);
  });

  it('has declarations that type-check in a strict project without skipLibCheck', () => {
    // stripInternal drops an `@internal` member from a class but not from the interface the class
    // implements: a user's `tsc` (skipLibCheck: false) then failed inside mcpkit's own .d.ts files.
    const program = ts.createProgram(
      entries.map((e) => e.file.replace(/\.js$/, '.d.ts')),
      { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, strict: true, skipLibCheck: false, types: ['node'] },
    );
    // Only mcpkit's own files: checking the peers' types too (Express, Fastify) costs a minute here.
    const ours = program.getSourceFiles().filter((f) => f.fileName.startsWith(DIST));
    expect(ours.length).toBeGreaterThan(entries.length);
    const problems = ours
      .flatMap((f) => program.getSemanticDiagnostics(f))
      .map((d) => `${d.file ? relative(DIST, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    expect(problems).toEqual([]);
  }, 60_000);

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
