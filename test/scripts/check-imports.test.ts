/**
 * scripts/check-imports.mjs on small trees written here and on the real src/: a cycle (type-only
 * included), an upward import and a stale allow-list entry each fail with a message naming the
 * files; the repository itself passes. The small trees go through the script's function in this
 * process (a spawn loads TypeScript again, ~1 CPU-s each); one of them and the repository run as
 * CI runs them, through the CLI.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkImports } from '../../scripts/check-imports/check.mjs';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-imports.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const LAYERS = { layers: [{ name: 'top', paths: ['src/top'], about: 'top' }, { name: 'bottom', paths: ['src/bottom'], about: 'bottom' }] };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>, allow?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-imports-'));
  dirs.push(dir);
  const all: Record<string, string> = { 'layers.json': JSON.stringify(LAYERS), ...files, ...(allow === undefined ? {} : { 'cycles.allow': allow }) };
  for (const [name, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const treeArgs = (root: string, extra: string[]): string[] => ['--root', root, '--layers', 'layers.json', '--allow', 'cycles.allow', ...extra];

function check(root: string, extra: string[] = ['--doc', '']): { status: number | null; out: string } {
  return checkImports(treeArgs(root, extra));
}

/** The same through the CLI: its exit status, and its report on stderr. */
function cli(root: string, extra: string[] = ['--doc', '']): { status: number | null; out: string; stdout: string } {
  const run = spawnSync(process.execPath, [SCRIPT, ...treeArgs(root, extra)], { encoding: 'utf8' });
  return { status: run.status, out: run.stderr, stdout: run.stdout };
}

describe('check-imports', () => {
  it('passes a tree whose imports point down and close no loop', () => {
    const root = tree({ 'src/top/a.ts': "import { b } from '../bottom/b.js';\nexport const a = b;\n", 'src/bottom/b.ts': 'export const b = 1;\n' });
    expect(check(root)).toMatchObject({ status: 0 });
  });

  it('fails on a cycle of type-only imports and export-from, naming the loop', () => {
    const root = tree({
      'src/bottom/x.ts': "import type { Y } from './y.js';\nexport type X = { y?: Y };\n",
      'src/bottom/y.ts': "export type { X as Y } from './x.js';\n",
    });
    const { status, out } = check(root);
    expect(status).toBe(1);
    expect(out).toContain('import cycle (2 files, type-only imports count): src/bottom/x.ts -> src/bottom/y.ts -> src/bottom/x.ts');
    // As CI sees it: exit 1, the same report on stderr, nothing on stdout.
    expect(cli(root)).toEqual({ status: 1, out: `${out}\n`, stdout: '' });
  });

  it('fails on an import that points up the layer order, naming both layers', () => {
    const root = tree({ 'src/top/a.ts': 'export const a = 1;\n', 'src/bottom/b.ts': "export { a } from '../top/a.js';\n" });
    const { status, out } = check(root);
    expect(status).toBe(1);
    expect(out).toContain('upward import: src/bottom/b.ts (layer bottom) imports src/top/a.ts (layer top, above it)');
  });

  it('fails on a CLI file importing a library file past the entries (the build bundles the entries only)', () => {
    const layers = {
      layers: [
        { name: 'cli', paths: ['src/cli'], about: 'bin' },
        { name: 'entries', paths: ['src/index.ts'], about: 'exports' },
        { name: 'lib', paths: ['src/lib'], about: 'library' },
      ],
    };
    const files = { 'layers.json': JSON.stringify(layers), 'src/index.ts': "export { x } from './lib/x.js';\n", 'src/lib/x.ts': 'export const x = 1;\n' };
    const through = tree({ ...files, 'src/cli/main.ts': "import { x } from '../index.js';\nexport const y = x;\n" });
    expect(check(through)).toMatchObject({ status: 0 });
    const past = tree({ ...files, 'src/cli/main.ts': "import { x } from '../lib/x.js';\nexport const y = x;\n" });
    const { status, out } = check(past);
    expect(status).toBe(1);
    expect(out).toContain('cli past the entries: src/cli/main.ts imports src/lib/x.ts');
    expect(out).toContain('only through src/index.ts');
  });

  it('fails on a file under no layer and on an import naming no file', () => {
    const root = tree({ 'src/top/a.ts': "import './gone.js';\n", 'src/elsewhere.ts': 'export {};\n' });
    const { status, out } = check(root);
    expect(status).toBe(1);
    expect(out).toContain("unresolved import: src/top/a.ts imports './gone.js'");
    expect(out).toContain('no layer: src/elsewhere.ts');
  });

  it('tolerates exactly an allow-listed cycle, and fails once that cycle is gone or has grown', () => {
    const cycle = { 'src/bottom/x.ts': "import './y.js';\n", 'src/bottom/y.ts': "import './x.js';\n" };
    const allow = '# known\nsrc/bottom/y.ts\nsrc/bottom/x.ts\n';
    expect(check(tree(cycle, allow))).toMatchObject({ status: 0 });

    const gone = check(tree({ 'src/bottom/x.ts': 'export {};\n', 'src/bottom/y.ts': "import './x.js';\n" }, allow));
    expect(gone.status).toBe(1);
    expect(gone.out).toContain('allow-listed cycle no longer exists exactly: src/bottom/x.ts, src/bottom/y.ts');

    const grown = check(tree({ ...cycle, 'src/bottom/y.ts': "import './z.js';\n", 'src/bottom/z.ts': "import './x.js';\n" }, allow));
    expect(grown.status).toBe(1);
    expect(grown.out).toContain('import cycle (3 files');
  });

  it('passes on the repository itself, with the layer order shown in docs/architecture.md', () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', cwd: REPO });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
