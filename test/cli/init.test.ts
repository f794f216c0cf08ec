/**
 * `mcpkit init`: the new project installs (mcpkit from this checkout, the
 * rest from the npm cache) and passes its own test; its bin serves the
 * built server to `mcpkit call`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { nextSteps } from '../../src/cli/commands/init.js';
import { projectFiles } from '../../src/cli/scaffold.js';
import { typeStripping } from '../../src/cli/target.js';
import { eventually } from '../support/eventually.js';
import { ROOT, freePort, mcpkit, run, tempDir } from './support.js';

const temp = tempDir('init');
afterAll(() => temp.remove());
const offline = { npm_config_prefer_offline: 'true' };

describe('mcpkit init', () => {
  it('creates a project that installs, passes its test, and serves its tool', async () => {
    const dir = join(temp.dir, 'weather-server');
    const init = await mcpkit(['init', dir], { env: offline });
    expect(init.stderr).toContain('next:');
    expect(init.code).toBe(0);
    expect(init.stdout).toBe('');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('weather-server');
    expect(pkg.dependencies.mcpkit).toBe(`file:${ROOT.replace(/[\\/]$/, '')}`);

    const test = await run('npm', ['test'], { cwd: dir });
    expect(test.stdout).toMatch(/# pass 2\n# fail 0/);
    expect(test.code).toBe(0);

    const call = await run(join(dir, 'node_modules', '.bin', 'mcpkit'), ['call', 'dist/server.js', 'greet', 'name=Ada'], { cwd: dir });
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);

    // The scaffold's own `npm run dev` on this Node (Node 20: tsc, then the compiled dist/server.js).
    const port = await freePort();
    const dev = spawn('npm', ['run', 'dev'], { cwd: dir, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let log = '';
    dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    try {
      await eventually(() => /\[mcpkit dev\] serving /.test(log) || dev.exitCode !== null, { deadlineMs: 60_000, message: 'npm run dev did not serve' });
      expect(log).not.toContain('cannot run TypeScript');
      const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('"name":"weather-server"');
    } finally {
      // npm, its shell and mcpkit dev share the group this test started.
      if (dev.pid !== undefined && dev.exitCode === null) process.kill(-dev.pid, 'SIGTERM');
    }
  }, 240_000);

  it('--no-install writes the files only; --mcpkit sets the dependency', async () => {
    const dir = join(temp.dir, 'files-only');
    const result = await mcpkit(['init', dir, '--no-install', '--mcpkit', '^0.1.0', '--name', 'my-server']);
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    for (const file of ['package.json', 'tsconfig.json', '.gitignore', 'README.md', 'src/server.ts', 'src/stdio.ts', 'src/server.test.ts']) {
      expect(existsSync(join(dir, file))).toBe(true);
    }
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'my-server', type: 'module', dependencies: { mcpkit: '^0.1.0' } });
    expect(readFileSync(join(dir, 'src/server.ts'), 'utf8')).toContain("new McpServer({ name: 'my-server'");
  });

  it('refuses a folder that is not empty (exit 2) and leaves it alone', async () => {
    const dir = join(temp.dir, 'busy');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    const result = await mcpkit(['init', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not empty');
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
    expect((await mcpkit(['init'])).code).toBe(2);
  });
});

describe('mcpkit init: the scripts suit the Node it runs on', () => {
  const scripts = (nodeVersion: string) => JSON.parse(projectFiles({ name: 'w', mcpkit: '^0.1.0', devDependencies: {}, nodeVersion })['package.json']!).scripts;

  it('Node 20 (no type stripping): dev compiles and serves dist/server.js, watch recompiles; no script runs a .ts file', () => {
    const old = scripts('20.19.0');
    expect(old.dev).toBe('tsc && mcpkit dev dist/server.js');
    expect(old.watch).toBe('tsc --watch --preserveWatchOutput');
    expect(Object.values(old).filter((s) => String(s).includes('.ts'))).toEqual([]);
    expect(projectFiles({ name: 'w', mcpkit: '^0.1.0', devDependencies: {}, nodeVersion: '20.19.0' })['README.md']).toContain('npx mcpkit call dist/server.js greet name=Ada');
  });

  it('a Node with type stripping serves src/server.ts directly', () => {
    for (const version of ['22.6.0', '22.18.0', '24.0.0']) expect(scripts(version).dev).toBe('mcpkit dev src/server.ts');
    expect(scripts('22.18.0').watch).toBeUndefined();
  });

  it('by default, the running Node decides', () => {
    const running = JSON.parse(projectFiles({ name: 'w', mcpkit: '^0.1.0', devDependencies: {} })['package.json']!).scripts;
    expect(running.dev).toBe(typeStripping() === false ? 'tsc && mcpkit dev dist/server.js' : 'mcpkit dev src/server.ts');
  });
});

describe('mcpkit init: next steps', () => {
  it('a Node that cannot run .ts files is shown the dist/ commands, which work on it', () => {
    const old = nextSteps('weather', false, '20.19.0');
    expect(old).toContain('npx mcpkit inspect dist/server.js');
    expect(old).toContain('npm run watch');
    expect(old).not.toContain('src/server.ts');
    const stripping = nextSteps('weather', false, '22.18.0');
    expect(stripping).toContain('npx mcpkit inspect src/server.ts');
    expect(stripping).toContain('npm run dev');
    expect(nextSteps('weather', true, '22.18.0')).toContain('npm install');
  });
});

