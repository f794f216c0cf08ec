/**
 * mcpkit/client against servers nobody here wrote: the official server-everything over stdio,
 * Streamable HTTP and the 2024-11-05 HTTP+SSE transport (the client's fallback), and
 * server-filesystem over stdio on a temp dir. Lists (every page), calls, progress, sampling,
 * elicitation, roots, logging and resource subscriptions, each asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StdioClientTransport, StreamableHttpTransport, type ClientOptions } from '../../src/client.js';
import { eventually } from '../support/eventually.js';

const require = createRequire(import.meta.url);
const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const FILESYSTEM = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')), 'dist', 'index.js');

const children: ChildProcess[] = [];
const clients: Client[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const text = (result: { content?: unknown }): string => JSON.stringify(result.content ?? []);

function callbacks(seen: string[]): ClientOptions {
  return {
    sampling: (params) => {
      seen.push(`sampling:${JSON.stringify(params.messages[0]?.content)}`);
      return { role: 'assistant', content: { type: 'text', text: 'a sampled answer' }, model: 'test-model' };
    },
    elicitation: (params) => {
      seen.push(`elicitation:${params.mode ?? 'form'}`);
      return { action: 'decline' };
    },
    roots: () => {
      seen.push('roots');
      return [{ uri: 'file:///workspace', name: 'workspace' }];
    },
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** server-everything in an HTTP mode; resolves once it says it listens. */
async function everythingOverHttp(mode: 'streamableHttp' | 'sse'): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await eventually(() => /listening|running/i.test(stderr), { deadlineMs: 20_000, message: `server-everything ${mode} to listen (stderr: ${stderr})` });
  return port;
}

/** What every transport of server-everything must show. */
async function exercise(client: Client, seen: string[]): Promise<void> {
  expect(client.era).toBe('legacy');
  expect(client.serverInfo?.name).toMatch(/everything/i);
  // Tools that depend on the client's capabilities are registered once the session knows them.
  await eventually(async () => (await client.listTools()).tools.some((t) => t.name === 'trigger-sampling-request'), { deadlineMs: 10_000, message: 'capability-dependent tools' });
  const tools = (await client.listTools()).tools.map((t) => t.name);
  expect(tools).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation', 'trigger-elicitation-request', 'get-roots-list']));

  expect(text(await client.callTool('echo', { message: 'hello' }))).toContain('hello');
  expect(text(await client.callTool('get-sum', { a: 2, b: 3 }))).toContain('5');

  const progress: number[] = [];
  await client.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
  expect(progress).toEqual([1, 2, 3]);

  expect(text(await client.callTool('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 10 }))).toContain('a sampled answer');
  expect(seen).toContainEqual(expect.stringContaining('sampling:'));
  await client.callTool('trigger-elicitation-request', {});
  expect(seen).toContain('elicitation:form');
  await eventually(() => seen.includes('roots'), { message: 'roots/list from the server' });
  expect(text(await client.callTool('get-roots-list', {}))).toContain('file:///workspace');

  // Every resource across pages, and a template, prompts.
  const resources: string[] = [];
  for await (const resource of client.resources()) resources.push(resource.uri);
  expect(new Set(resources).size).toBe(resources.length);
  expect(resources.length).toBeGreaterThan(0);
  const first = resources[0]!;
  expect((await client.readResource(first)).contents[0]?.uri).toBe(first);
  expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);

  // Logging: the level is set, then the server's simulated log messages arrive as events.
  const logs: unknown[] = [];
  client.on('notifications/message', (params) => void logs.push(params));
  await client.setLoggingLevel('debug');
  await client.callTool('toggle-simulated-logging', {});
  await eventually(() => logs.length > 0, { deadlineMs: 20_000, message: 'a notifications/message' });
  await client.callTool('toggle-simulated-logging', {});

  // Subscriptions: resources/updated for the subscribed URI.
  const updated: string[] = [];
  client.on('notifications/resources/updated', (params) => void updated.push(String(params['uri'])));
  await client.subscribeResource(first);
  await client.callTool('toggle-subscriber-updates', {});
  await eventually(() => updated.includes(first), { deadlineMs: 20_000, message: `resources/updated for ${first}` });
  await client.callTool('toggle-subscriber-updates', {});
  await client.unsubscribeResource(first);
}

describe('server-everything', () => {
  it('over stdio', async () => {
    const seen: string[] = [];
    const client = new Client(callbacks(seen));
    clients.push(client);
    const exits: unknown[] = [];
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], onExit: (exit) => void exits.push(exit) }));
    await exercise(client, seen);
    await client.close();
    await eventually(() => exits.length === 1, { message: 'the child to exit' });
  }, 90_000);

  it('over Streamable HTTP (auto falls back from server/discover to initialize)', async () => {
    const port = await everythingOverHttp('streamableHttp');
    const seen: string[] = [];
    const client = new Client(callbacks(seen));
    clients.push(client);
    const transport = new StreamableHttpTransport(`http://127.0.0.1:${port}/mcp`);
    await client.connect(transport);
    expect(transport.sessionId).toBeDefined();
    await exercise(client, seen);
  }, 90_000);

  it('over the 2024-11-05 HTTP+SSE transport: the client falls back when the POST is refused', async () => {
    const port = await everythingOverHttp('sse');
    const seen: string[] = [];
    const client = new Client(callbacks(seen));
    clients.push(client);
    const transport = new StreamableHttpTransport(`http://127.0.0.1:${port}/sse`);
    await client.connect(transport);
    expect(transport.usesLegacySse).toBe(true);
    await exercise(client, seen);
  }, 90_000);
});

describe('server-filesystem over stdio', () => {
  it('lists and reads a temp dir, and refuses a path outside it', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-fs-interop-')));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'interop works\n');
    const client = new Client({ roots: [{ uri: `file://${dir}`, name: 'temp' }] });
    clients.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [FILESYSTEM, dir] }));
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['read_text_file', 'list_directory', 'write_file']));
    expect(text(await client.callTool('list_directory', { path: dir }))).toContain('notes.txt');
    const read = await client.callTool('read_text_file', { path: path.join(dir, 'notes.txt') });
    expect(text(read)).toContain('interop works');
    await client.callTool('write_file', { path: path.join(dir, 'out.txt'), content: 'written by mcpkit' });
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('written by mcpkit');
    const outside = await client.callTool('read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
  }, 60_000);
});

describe('stdio shutdown', () => {
  it('escalates stdin close → SIGTERM → SIGKILL on a child that ignores them', async () => {
    // A child that answers initialize, then ignores stdin's end and SIGTERM.
    // The grace is long enough for a loaded machine to run its SIGTERM handler
    // before the SIGKILL (200 ms was not, under load 16).
    const script = `
      process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\\n'));
      process.stdin.on('end', () => process.stderr.write('ignoring stdin end\\n'));
      let buf = '';
      process.stdin.on('data', (c) => {
        buf += c;
        let i;
        while ((i = buf.indexOf('\\n')) >= 0) {
          const m = JSON.parse(buf.slice(0, i)); buf = buf.slice(i + 1);
          if (m.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'stubborn', version: '1' } } }) + '\\n');
        }
      });
      setInterval(() => {}, 1000);`;
    let stderr = '';
    const exits: { code: number | null; signal: NodeJS.Signals | null }[] = [];
    const client = new Client({ protocolVersion: '2025-11-25' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['-e', script], graceMs: 1500, onStderr: (t) => (stderr += t), onExit: (e) => void exits.push(e) }));
    expect(client.serverInfo?.name).toBe('stubborn');
    await client.close();
    expect(exits).toEqual([{ code: null, signal: 'SIGKILL' }]);
    expect(stderr).toContain('ignoring stdin end');
    expect(stderr).toContain('ignoring SIGTERM');
  }, 30_000);
});
