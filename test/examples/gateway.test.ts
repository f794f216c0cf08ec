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
