import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { listeningUrl } from '../support/process.js';

// examples/gateway, run the way a user would run it.
const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

it('examples/gateway/server.js serves its own tool and the memory server under memory_', async () => {
  const child = spawn(process.execPath, ['examples/gateway/server.js'], { cwd: root, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  const url = await listeningUrl(child);
  const client = new Client();
  await client.connect(new StreamableHttpTransport(url));
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['hello', 'memory_read_graph', 'memory_create_entities']));
  const result = await client.callTool('hello');
  expect(result.content[0]).toMatchObject({ text: 'Hello from the gateway itself' });
  const graph = await client.callTool('memory_read_graph', {});
  expect(graph.isError).not.toBe(true);
  await client.close();
}, 30_000);

it('examples/gateway/mcp.json serves memory_ and everything_ through `mcpkit proxy --config` (each `npx -y` resolves the installed package)', async () => {
  const child = spawn(process.execPath, ['bin/mcpkit.js', 'proxy', '--config', 'examples/gateway/mcp.json', '--port', '0'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', () => {
      const match = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mcpkit proxy exited (${code}): ${stderr}`)));
  });
  expect(stderr).toContain('memory, everything on');
  for (const protocolVersion of ['2025-11-25', '2026-07-28'] as const) {
    const client = new Client({ protocolVersion });
    await client.connect(new StreamableHttpTransport(url));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['memory_read_graph', 'everything_echo']));
    expect((await client.callTool('everything_echo', { message: protocolVersion })).content[0]).toMatchObject({ text: `Echo: ${protocolVersion}` });
    await client.close();
  }
}, 90_000);
