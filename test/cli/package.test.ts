/**
 * The package as users get it: `npm pack`, installed from the tarball into a
 * fresh project (tarballs from the npm cache `npm ci` filled; only package metadata may come from the registry), then the
 * README's example type-checked as TypeScript and run as ESM and as CommonJS,
 * and the `mcpkit` bin run from node_modules/.bin.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, INITIALIZED, ROOT, killAll, ndjson, parseLines, run, tempDir } from './support.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const temp = tempDir('pack');
const project = join(temp.dir, 'consumer');
let files: string[] = [];
let installOutput = '';

/** Bytes of every file under `dir` (what `du --apparent-size` counts). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

/** The folders of an installed package and of everything it depends on, in `project`'s node_modules. */
function installedTree(name: string, seen = new Set<string>()): Set<string> {
  const dir = join(project, 'node_modules', name);
  if (seen.has(dir) || !existsSync(dir)) return seen;
  seen.add(dir);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dep of Object.keys(manifest.dependencies ?? {})) installedTree(dep, seen);
  return seen;
}

/** The README's first TypeScript block that builds a server. */
function readmeExample(): string {
  const blocks = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const example = blocks.find((b) => b.includes('new McpServer'));
  if (!example) throw new Error('README.md has no ```ts block with `new McpServer`');
  return example;
}

/** The same code for CommonJS: imports become require(), the top-level await an async IIFE. */
function toCommonJs(esm: string): string {
  const body = esm.replace(/^import \{([^}]*)\} from '([^']+)';$/gm, (_m, names: string, from: string) => `const {${names}} = require('${from}');`);
  const lines = body.split('\n');
  const firstCode = lines.findIndex((l) => !l.startsWith('const {') && l.trim() !== '');
  return [...lines.slice(0, firstCode), '(async () => {', ...lines.slice(firstCode), '})();'].join('\n');
}

const call = (id: number, city: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'forecast', arguments: { city } } });

async function exerciseExample(file: string): Promise<void> {
  const result = await run(process.execPath, [file], { cwd: project, input: ndjson(INITIALIZE, INITIALIZED, call(2, 'Paris'), call(3, 'Atlantis')) });
  expect(result.stderr).toBe('');
  const [init, paris, atlantis] = parseLines(result.stdout);
  expect(init!['result'].serverInfo).toEqual({ name: 'weather', version: '1.0.0' });
  expect(paris!['result']).toEqual({ content: [{ type: 'text', text: 'Sunny in Paris for 3 days' }] });
  expect(atlantis!['result']).toEqual({ content: [{ type: 'text', text: 'No forecasts for places under the sea' }], isError: true });
}

beforeAll(() => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', temp.dir], { cwd: ROOT, encoding: 'utf8' }));
  files = packed[0].files.map((f: { path: string }) => f.path);
  execFileSync('mkdir', [project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  const tarball = join(temp.dir, packed[0].filename);
  const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `zod@${pkg.devDependencies.zod}`, `@types/node@${pkg.devDependencies['@types/node']}`], { cwd: project, encoding: 'utf8' });
  installOutput = install.stdout + install.stderr;
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${installOutput}`);
}, 120_000);

afterAll(async () => {
  await killAll();
  temp.remove();
});

describe('the packed tarball', () => {
  it('holds the build, the bin, the demo, LICENSE, README and CHANGELOG, and no sources, tests or maps', () => {
    for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'bin/mcpkit.js', 'examples/everything-server/server.js', 'LICENSE', 'README.md', 'CHANGELOG.md', 'package.json']) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.endsWith('.map') || /\.test\./.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual([]);
  });

  it('names its repository, homepage and issue tracker, and has no install script (npm warns on each install of one)', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'mcpkit', 'package.json'), 'utf8'));
    expect(manifest.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/) });
    expect(manifest.homepage).toMatch(/^https:\/\/github\.com\//);
    expect(manifest.bugs.url).toMatch(/^https:\/\/github\.com\/.*\/issues$/);
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts?.[script]).toBeUndefined();
    expect(installOutput).not.toContain('install-scripts');
  });

  it("the README's links work from node_modules/mcpkit and npm's page: absolute, and each names a file of this repository", () => {
    const readme = readFileSync(join(project, 'node_modules', 'mcpkit', 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(targets.filter((t) => !/^(https?:|mailto:|#)/.test(t))).toEqual([]);
    const base = `${pkg.homepage.replace(/#.*$/, '')}/blob/main/`;
    const ours = targets.filter((t) => t.startsWith(base));
    expect(ours.length).toBeGreaterThan(20);
    for (const target of ours) expect(existsSync(join(ROOT, target.slice(base.length).replace(/#.*$/, '')))).toBe(true);
  });

  it("the README's installed size is what installing the tarball takes (mcpkit and its dependencies)", () => {
    const bytes = [...installedTree('mcpkit')].reduce((sum, dir) => sum + bytesUnder(dir), 0);
    const claimed = /([\d.]+) MB\s+installed with it/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(claimed, 'README.md says "<n> MB installed with it"').not.toBeNull();
    expect(`${(bytes / 1e6).toFixed(1)} MB`).toBe(`${claimed![1]} MB`);
  });

  it('the README example type-checks as TypeScript against the installed types', async () => {
    writeFileSync(join(project, 'example.mts'), readmeExample());
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['example.mts'] }));
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  }, 90_000);

  it('the README example runs as an ES module', async () => {
    writeFileSync(join(project, 'example.mjs'), readmeExample());
    await exerciseExample('example.mjs');
  });

  it("the README example runs as CommonJS (require('mcpkit'))", async () => {
    writeFileSync(join(project, 'example.cjs'), toCommonJs(readmeExample()));
    await exerciseExample('example.cjs');
  });

  it('every subpath export resolves from CommonJS', async () => {
    const subpaths = Object.keys(pkg.exports).filter((k) => k !== './package.json').map((k) => k.replace(/^\./, 'mcpkit'));
    // mcpkit/express and mcpkit/otel need their optional peers (express, @opentelemetry/api), not installed here.
    const needPeers = ['mcpkit/express', 'mcpkit/otel'];
    const script = `for (const p of ${JSON.stringify(subpaths.filter((s) => !needPeers.includes(s)))}) if (Object.keys(require(p)).length === 0) throw new Error(p);`;
    const result = await run(process.execPath, ['-e', script], { cwd: project });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('node_modules/.bin/mcpkit runs the demo over stdio', async () => {
    expect(readdirSync(join(project, 'node_modules', '.bin'))).toContain('mcpkit');
    const result = await run(join(project, 'node_modules', '.bin', 'mcpkit'), ['demo', '--stdio'], { cwd: project, input: ndjson(INITIALIZE) });
    expect(result.code).toBe(0);
    expect(parseLines(result.stdout)[0]!['result'].serverInfo.name).toBe('mcpkit-everything-server');
  });
});
