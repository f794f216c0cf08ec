/** `mcpkit config`: each client's configuration, printed or merged into its file after a diff. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, mcpkit, tempDir } from './support.js';

const SERVER = resolve('test/cli/fixtures/tools-server.mjs');
const temp = tempDir('config');
afterAll(() => temp.remove());

const printed = async (args: string[]) => {
  const result = await mcpkit(['config', ...args], { cwd: temp.dir });
  expect(result.code).toBe(0);
  return { json: JSON.parse(result.stdout), stderr: result.stderr };
};
const devStdio = { command: 'node', args: [BIN, 'dev', '--stdio', SERVER] };

describe('mcpkit config', () => {
  it('claude-desktop: an entry runs through mcpkit dev --stdio, named after its package; a URL through mcp-remote', async () => {
    expect((await printed(['claude-desktop', SERVER])).json).toEqual({ mcpServers: { mcpkit: devStdio } });
    expect((await printed(['claude-desktop', 'https://mcp.example.com/mcp'])).json).toEqual({
      mcpServers: { 'mcp.example.com': { command: 'npx', args: ['-y', 'mcp-remote', 'https://mcp.example.com/mcp'] } },
    });
  });

  it('claude-code: .mcp.json entries and the claude mcp add command', async () => {
    const stdio = await printed(['claude-code', SERVER, '--name', 'weather']);
    expect(stdio.json).toEqual({ mcpServers: { weather: { type: 'stdio', ...devStdio } } });
    expect(stdio.stderr).toContain(`claude mcp add weather -- node ${BIN} dev --stdio ${SERVER}`);
    const http = await printed(['claude-code', 'http://127.0.0.1:3000/mcp']);
    expect(http.json).toEqual({ mcpServers: { 'localhost-3000': { type: 'http', url: 'http://127.0.0.1:3000/mcp' } } });
    expect(http.stderr).toContain('claude mcp add --transport http localhost-3000 http://127.0.0.1:3000/mcp');
  });

  it('cursor: mcpServers with command or url, and an install link that carries the same entry', async () => {
    const { json, stderr } = await printed(['cursor', 'demo']);
    expect(json).toEqual({ mcpServers: { 'mcpkit-demo': { command: 'node', args: [BIN, 'demo', '--stdio'] } } });
    const link = new URL(stderr.match(/(cursor:\/\/\S+)/)![1]!);
    expect(link.searchParams.get('name')).toBe('mcpkit-demo');
    expect(JSON.parse(Buffer.from(link.searchParams.get('config')!, 'base64').toString())).toEqual(json.mcpServers['mcpkit-demo']);
    expect((await printed(['cursor', 'http://localhost:8080/mcp'])).json).toEqual({ mcpServers: { 'localhost-8080': { url: 'http://localhost:8080/mcp' } } });
  });

  it('vscode: servers with a type, and an install link', async () => {
    const { json, stderr } = await printed(['vscode', 'http://127.0.0.1:3000/mcp', '--name', 'demo']);
    expect(json).toEqual({ servers: { demo: { type: 'http', url: 'http://127.0.0.1:3000/mcp' } } });
    const link = stderr.match(/vscode:mcp\/install\?(\S+)/)![1]!;
    expect(JSON.parse(decodeURIComponent(link))).toEqual({ name: 'demo', type: 'http', url: 'http://127.0.0.1:3000/mcp' });
  });

  it('--env KEY=VALUE (repeatable) goes into the entry the client starts, and into claude mcp add as -e', async () => {
    const desktop = await printed(['claude-desktop', SERVER, '--env', 'API_KEY=a b', '--env', 'EMPTY=']);
    expect(desktop.json).toEqual({ mcpServers: { mcpkit: { ...devStdio, env: { API_KEY: 'a b', EMPTY: '' } } } });
    const code = await printed(['claude-code', SERVER, '--env', 'REGION=eu=1']);
    expect(code.json.mcpServers.mcpkit.env).toEqual({ REGION: 'eu=1' });
    expect(code.stderr).toContain(`claude mcp add mcpkit -e REGION=eu=1 -- node ${BIN} dev --stdio ${SERVER}`);
    expect((await printed(['vscode', 'demo', '--env', 'A=1'])).json.servers['mcpkit-demo']).toEqual({ type: 'stdio', command: 'node', args: [BIN, 'demo', '--stdio'], env: { A: '1' } });
    for (const [args, message] of [
      [['claude-desktop', SERVER, '--env', 'NOEQUALS'], '--env NOEQUALS: expected KEY=VALUE'],
      [['claude-desktop', SERVER, '--env', '1X=2'], '--env 1X=2: expected KEY=VALUE'],
      [['cursor', 'http://127.0.0.1:3000/mcp', '--env', 'A=1'], '--env sets the environment of a server the client starts'],
    ] as const) {
      const refused = await mcpkit(['config', ...args], { cwd: temp.dir });
      expect(refused.stderr).toContain(message);
      expect(refused.code).toBe(2);
    }
  });

  it('production forms: --prod runs the built entry with node, npm:PACKAGE runs a published server with npx', async () => {
    const built = join(temp.dir, 'weather', 'dist', 'stdio.js');
    mkdirSync(join(temp.dir, 'weather', 'dist'), { recursive: true });
    writeFileSync(built, '');
    writeFileSync(join(temp.dir, 'weather', 'package.json'), JSON.stringify({ name: '@me/weather' }));
    expect((await printed(['claude-desktop', built, '--prod', '--env', 'K=v'])).json).toEqual({ mcpServers: { weather: { command: 'node', args: [built], env: { K: 'v' } } } });
    expect((await printed(['cursor', 'npm:@acme/notes-server@1.2.0'])).json).toEqual({ mcpServers: { 'notes-server': { command: 'npx', args: ['-y', '@acme/notes-server@1.2.0'] } } });
    expect((await printed(['claude-code', 'npm:notes'])).stderr).toContain('claude mcp add notes -- npx -y notes');
    const ts = join(temp.dir, 'server.ts');
    writeFileSync(ts, '');
    for (const [args, message] of [
      [['claude-desktop', ts, '--prod'], 'is TypeScript; build it (npm run build) and pass the .js file'],
      [['claude-desktop', 'npm:not a name'], 'npm:not a name: not a package name'],
      [['claude-desktop', 'npm:x', '--prod'], '--prod goes with an entry file'],
      [['claude-desktop', 'http://127.0.0.1:1/mcp', '--prod'], '--prod goes with an entry file'],
    ] as const) {
      const refused = await mcpkit(['config', ...args], { cwd: temp.dir });
      expect(refused.stderr).toContain(message);
      expect(refused.code).toBe(2);
    }
  });

  it('--write merges into the existing file after showing the diff, and a second run changes nothing', async () => {
    const file = join(temp.dir, '.vscode', 'mcp.json');
    const first = await mcpkit(['config', 'vscode', SERVER, '--write'], { cwd: temp.dir });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`new file ${file}`);
    expect(first.stderr).toContain('+     "mcpkit": {');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    config.servers.other = { type: 'http', url: 'http://other' };
    writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);

    const second = await mcpkit(['config', 'vscode', 'http://127.0.0.1:3000/mcp', '--name', 'mcpkit', '--write'], { cwd: temp.dir });
    expect(second.stderr).toContain('-       "type": "stdio",');
    expect(second.stderr).toContain('+       "type": "http",');
    expect(JSON.parse(readFileSync(file, 'utf8')).servers).toEqual({ mcpkit: { type: 'http', url: 'http://127.0.0.1:3000/mcp' }, other: { type: 'http', url: 'http://other' } });

    const third = await mcpkit(['config', 'vscode', 'http://127.0.0.1:3000/mcp', '--name', 'mcpkit', '--write'], { cwd: temp.dir });
    expect(third.stderr).toContain('already up to date');
  });

  it('--write --file writes where asked; a file that is not JSON is left alone (exit 5)', async () => {
    const file = join(temp.dir, 'custom.json');
    expect((await mcpkit(['config', 'mcp-json', SERVER, '--write', '--file', file], { cwd: temp.dir })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ mcpServers: { mcpkit: devStdio } });
    writeFileSync(file, '{ not json');
    const broken = await mcpkit(['config', 'mcp-json', SERVER, '--write', '--file', file], { cwd: temp.dir });
    expect(broken.code).toBe(5);
    expect(broken.stderr).toContain('is not JSON');
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });

  it('usage errors exit 2', async () => {
    expect((await mcpkit(['config', 'emacs', SERVER])).code).toBe(2);
    expect((await mcpkit(['config', 'cursor'])).code).toBe(2);
    expect((await mcpkit(['config', 'cursor', join(temp.dir, 'missing.mjs')])).code).toBe(2);
    expect(existsSync(join(temp.dir, '.cursor'))).toBe(false);
  });
});
