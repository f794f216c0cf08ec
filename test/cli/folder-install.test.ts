/**
 * `npm install ../mcpkit` from a checkout that was never built: the files git
 * tracks, copied without node_modules or dist, installed into a new project.
 * The install succeeds without running anything (no `sh: tsc: not found`, no
 * install-scripts warning), the unbuilt folder's `mcpkit` says what to run, and
 * once the folder is built the project imports it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run, tempDir } from './support.js';

const temp = tempDir('folder');
const checkout = join(temp.dir, 'mcpkit');
const project = join(temp.dir, 'consumer');
let install: { status: number | null; output: string };

beforeAll(() => {
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (file === 'node_modules' || file.startsWith('dist/')) continue;
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    try {
      cpSync(join(ROOT, file), join(checkout, file));
    } catch {
      // listed by git but deleted in this work tree
    }
  }
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  const npm = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', checkout], { cwd: project, encoding: 'utf8' });
  install = { status: npm.status, output: npm.stdout + npm.stderr };
}, 120_000);

afterAll(() => temp.remove());

describe('npm install <folder> of a checkout that was never built', () => {
  it('installs without running a build (no tsc needed, no install-scripts warning)', () => {
    expect(install.output).not.toMatch(/tsc: not found|install-scripts|npm error/);
    expect(install.status).toBe(0);
  });

  it("the folder's mcpkit command says it was never built and what to run there (exit 5)", async () => {
    const result = await run(join(project, 'node_modules', '.bin', 'mcpkit'), ['--help'], { cwd: project });
    expect(result.stderr).toContain(`${checkout}/ was never built (dist/ is missing). Run \`npm ci && npm run build\` there`);
    expect(result.code).toBe(5);
  });

  it('once the folder is built (its dependencies installed, dist/ in place), the project imports mcpkit and runs its command', async () => {
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    cpSync(join(ROOT, 'dist'), join(checkout, 'dist'), { recursive: true });
    const imported = await run(process.execPath, ['-e', "import('mcpkit').then((m) => console.log(typeof m.McpServer))"], { cwd: project });
    expect(imported.stderr).toBe('');
    expect(imported.stdout.trim()).toBe('function');
    const help = await run(join(project, 'node_modules', '.bin', 'mcpkit'), ['--help'], { cwd: project });
    expect(help.code).toBe(0);
  });
});
