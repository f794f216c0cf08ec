/**
 * The same end-to-end server (test/runtimes/app/server.mjs, importing `mcpkit` as a user does) on the
 * real runtimes: Bun.serve, Deno.serve with --allow-net=127.0.0.1 only, and a Worker bundled as
 * wrangler bundles it (esbuild, the workerd conditions) served by workerd with no compatibility flag
 * at 2026-11-17 (docs/runtimes.md's wrangler configuration) and, the issue's repro, with nodejs_compat at
 * 2026-01-01, before its Node timers. Driven by the
 * official SDK clients: v1 on a legacy session, v2 negotiating 2026-07-28. The runtimes are pinned
 * devDependencies (their binaries ship inside the npm packages); one that is missing fails the suite
 * with the command that installs it, never a skip. dist/ is built by the global setup.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, copyFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../transports/http/support.js';
import { eventually } from '../support/eventually.js';
import { LEGACY, MODERN } from '../support/revisions.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const APP_SOURCE = new URL('./app/', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

/** A pinned runtime's binary, or an error that says how to get it. */
export function runtimeBinary(name: 'bun' | 'deno' | 'workerd' | 'esbuild'): string {
  const bin = join(ROOT, 'node_modules', '.bin', name);
  const pinned = pkg.devDependencies[name];
  if (pinned === undefined) throw new Error(`${name} is not a devDependency: run \`npm install --save-dev --save-exact ${name}\``);
  if (!existsSync(bin)) throw new Error(`${name} ${pinned} is not installed (no ${bin}): run \`npm ci\` in ${ROOT} (it is a pinned devDependency whose binary ships in the npm package)`);
  return bin;
}

/** Where the app lives as a user's project would: its own folder, mcpkit and zod in node_modules. */
function makeApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-runtimes-'));
  for (const file of readdirSync(APP_SOURCE)) copyFileSync(join(APP_SOURCE, file), join(dir, file));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'mcpkit'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'zod'), join(dir, 'node_modules', 'zod'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'runtime-e2e', private: true, type: 'module', dependencies: { mcpkit: '*', zod: '*' } }));
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  output: () => string;
}

function start(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Running {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function listening(running: Running): Promise<number> {
  let port: number | undefined;
  await eventually(
    () => {
      if (running.child.exitCode !== null) throw new Error(`exited ${running.child.exitCode}:\n${running.output()}`);
      port = Number(/listening (\d+)/.exec(running.output())?.[1] ?? NaN);
      return Number.isInteger(port);
    },
    { deadlineMs: 15_000, message: 'the runtime printing its port' },
  );
  return port!;
}

async function answering(url: string, running: Running): Promise<void> {
  await eventually(
    async () => {
      if (running.child.exitCode !== null) throw new Error(`exited ${running.child.exitCode}:\n${running.output()}`);
      return fetch(url, { method: 'OPTIONS' }).then(() => true, () => false);
    },
    { deadlineMs: 15_000, message: `${url} answering` },
  );
}

function workerdConfig(bundle: string, sockets: { name: string; port: number; date: string; flags: string[] }[]): string {
  const services = sockets.map((s) => `(name = "${s.name}", worker = (modules = [(name = "worker", esModule = embed "${bundle}")], compatibilityDate = "${s.date}", compatibilityFlags = [${s.flags.map((f) => `"${f}"`).join(', ')}]))`);
  const listeners = sockets.map((s) => `(name = "${s.name}", address = "127.0.0.1:${s.port}", http = (), service = "${s.name}")`);
  return `using Workerd = import "/workerd/workerd.capnp";\nconst config :Workerd.Config = (\n  services = [${services.join(', ')}],\n  sockets = [${listeners.join(', ')}],\n);\n`;
}

const text = (result: unknown): string => ((result as { content: { text?: string }[] }).content[0]?.text ?? '');

/** Everything the suite asks of one runtime, over the official clients and raw HTTP. */
function exercise(name: string, url: () => string): void {
  describe(name, () => {
    it('legacy era (SDK v1 on a session): lists, zod and JSON Schema tools, isError, progress over SSE, resources, prompts', async () => {
      const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
      const transport = new TransportV1(new URL(url()));
      await client.connect(transport);
      try {
        expect(transport.sessionId).toMatch(/^[\x21-\x7e]{16,}$/);
        expect(client.getServerVersion()).toMatchObject({ name: 'runtime-e2e' });
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['add', 'greet', 'steps']);
        expect(text(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
        const badZod = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
        expect(badZod.isError).toBe(true);
        expect(text(badZod)).toMatch(/a/);
        expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');
        const badJson = await client.callTool({ name: 'greet', arguments: { name: '' } });
        expect(badJson.isError).toBe(true);
        expect(text(badJson)).toMatch(/name/);
        const progress: number[] = [];
        const stepped = await client.callTool({ name: 'steps', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
        expect(text(stepped)).toBe('stepped');
        expect(progress).toEqual([1, 2, 3]);
        expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['memo://one']);
        expect((await client.readResource({ uri: 'memo://one' })).contents).toEqual([{ uri: 'memo://one', mimeType: 'text/plain', text: 'first memo' }]);
        expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello']);
        expect((await client.getPrompt({ name: 'hello', arguments: { who: 'Bob' } })).messages[0]?.content).toEqual({ type: 'text', text: 'Say hello to Bob' });
      } finally {
        await client.close();
      }
    });

    it('legacy sessions: one per initialize, ended by DELETE, then 404', async () => {
      const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
      const transport = new TransportV1(new URL(url()));
      await client.connect(transport);
      const other = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
      const otherTransport = new TransportV1(new URL(url()));
      await other.connect(otherTransport);
      const session = transport.sessionId!;
      expect(otherTransport.sessionId).not.toBe(session);
      await transport.terminateSession();
      await client.close();
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY };
      const gone = await fetch(url(), { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }) });
      expect(gone.status).toBe(404);
      // The other session is untouched.
      expect((await other.listTools()).tools).toHaveLength(3);
      await other.close();
    });

    it('modern era (SDK v2 negotiating 2026-07-28): the same calls, progress over SSE', async () => {
      const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
      await client.connect(new TransportV2(new URL(url())));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['add', 'greet', 'steps']);
        expect(text(await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } }))).toBe('42');
        expect((await client.callTool({ name: 'add', arguments: { a: 1 } })).isError).toBe(true);
        expect((await client.callTool({ name: 'greet', arguments: { name: 'Ada', extra: 1 } })).isError).toBe(true);
        expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Grace' } }))).toBe('Hello, Grace!');
        const progress: number[] = [];
        expect(text(await client.callTool({ name: 'steps', arguments: {} }, { onprogress: (p) => progress.push(p.progress) }))).toBe('stepped');
        expect(progress).toEqual([1, 2, 3]);
        expect((await client.readResource({ uri: 'memo://one' })).contents[0]).toMatchObject({ text: 'first memo' });
        expect((await client.getPrompt({ name: 'hello', arguments: { who: 'Eve' } })).messages).toHaveLength(1);
      } finally {
        await client.close();
      }
    });

    it('refuses a foreign Host and a foreign Origin with 403', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
      const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const host = await rawRequest(url(), { headers: { ...base, host: 'evil.example.com' }, body });
      expect(host.status).toBe(403);
      const origin = await rawRequest(url(), { headers: { ...base, origin: 'https://evil.example.com' }, body });
      expect(origin.status).toBe(403);
      const fine = await rawRequest(url(), { headers: base, body });
      expect(fine.status).toBe(200);
    });
  });
}

const app = makeApp();
const children: Running[] = [];
const urls: Record<string, string> = {};
afterAll(() => {
  for (const running of children) running.child.kill('SIGKILL');
  rmSync(app, { recursive: true, force: true });
});

describe('the runtimes are installed', () => {
  it.each(['bun', 'deno', 'workerd', 'esbuild'] as const)('%s is the pinned version', async (name) => {
    const bin = runtimeBinary(name);
    // The binary is put in place by the package's postinstall script: when npm skipped it (--ignore-scripts,
    // or a policy that blocks install scripts), bin/ holds a placeholder, so say how to run it.
    const fix = `its binary is placed by the package's postinstall script, which may have been skipped (npm --ignore-scripts): run \`npm rebuild ${name}\` in ${ROOT}`;
    const version = await new Promise<string>((resolve, reject) => {
      const child = spawn(bin, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.once('error', (error) => reject(new Error(`${bin} --version failed (${error.message}); ${fix}`)));
      child.once('close', () => resolve(out.trim()));
    });
    const pinned = pkg.devDependencies[name]!;
    // workerd prints its compatibility date (1.20261117.1 → 2026-11-17).
    const expected = name === 'workerd' ? `workerd ${pinned.slice(2, 6)}-${pinned.slice(6, 8)}-${pinned.slice(8, 10)}` : pinned;
    expect(version, `${bin} --version printed ${JSON.stringify(version)}, not ${expected}; ${fix}`).toContain(expected);
  });
});

describe.sequential('on the real runtimes', () => {
  beforeAll(async () => {
    const bun = start(runtimeBinary('bun'), ['bun.mjs'], app);
    const deno = start(runtimeBinary('deno'), ['run', '--no-prompt', '--node-modules-dir=manual', '--allow-net=127.0.0.1', 'deno.mjs'], app, { DENO_DIR: join(app, '.deno'), NO_COLOR: '1' });
    children.push(bun, deno);
    // The Worker, bundled the way wrangler does: ESM, the workerd/worker/browser export conditions.
    const bundled = start(runtimeBinary('esbuild'), ['worker.mjs', '--bundle', '--format=esm', '--platform=neutral', '--conditions=workerd,worker,browser', '--main-fields=module,main', '--outfile=worker.bundle.js', '--log-level=error'], app);
    await new Promise<void>((resolve, reject) => bundled.child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`esbuild failed:\n${bundled.output()}`)))));
    const [plain, compat] = [await freePort(), await freePort()];
    writeFileSync(join(app, 'workerd.capnp'), workerdConfig('worker.bundle.js', [
      { name: 'plain', port: plain, date: '2026-11-17', flags: [] },
      { name: 'compat', port: compat, date: '2026-01-01', flags: ['nodejs_compat'] },
    ]));
    const workerd = start(runtimeBinary('workerd'), ['serve', 'workerd.capnp', '--verbose'], app);
    children.push(workerd);
    urls['bun'] = `http://127.0.0.1:${await listening(bun)}/mcp`;
    urls['deno'] = `http://127.0.0.1:${await listening(deno)}/mcp`;
    urls['workerd'] = `http://127.0.0.1:${plain}/mcp`;
    urls['workerd-compat'] = `http://127.0.0.1:${compat}/mcp`;
    await Promise.all([answering(urls['bun'], bun), answering(urls['deno'], deno), answering(urls['workerd'], workerd), answering(urls['workerd-compat'], workerd)]);
  }, 60_000);

  it('bundles the Worker without a node: import', () => {
    const bundle = readFileSync(join(app, 'worker.bundle.js'), 'utf8');
    expect(bundle).not.toMatch(/\bfrom\s*["']node:|import\(\s*["']node:|require\(\s*["']node:/);
    expect(statSync(join(app, 'worker.bundle.js')).size).toBeGreaterThan(10_000);
  });

  exercise('Bun.serve', () => urls['bun']!);
  exercise('Deno.serve (--allow-net=127.0.0.1 only)', () => urls['deno']!);
  exercise('a Worker on workerd at 2026-11-17, no compatibility flag', () => urls['workerd']!);
  exercise('a Worker on workerd, nodejs_compat at 2026-01-01 (numeric timers)', () => urls['workerd-compat']!);
});
