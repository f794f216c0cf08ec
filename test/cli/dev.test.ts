/**
 * `mcpkit dev`: a real client attached through the stdio supervisor keeps its
 * connection across a reload and is told the lists changed; over HTTP the
 * port stays open and a broken save leaves the previous version serving.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BIN, INITIALIZE, INITIALIZED, ROOT, eventually, freePort, isListening, killAll, mcpkit, startMcpkit, tempDir } from './support.js';

const temp = tempDir('dev');
afterEach(killAll);
afterAll(() => temp.remove());

/** A server file that imports the built package by path (the temp folder has no node_modules). */
function writeServer(dir: string, version: string, extra = ''): string {
  const file = join(dir, 'server.mjs');
  writeFileSync(file, [
    `import { McpServer } from ${JSON.stringify(join(ROOT, 'dist', 'index.js'))};`,
    "export const server = new McpServer({ name: 'dev-fixture', version: '1.0.0' });",
    `server.tool('version', { input: { type: 'object', properties: {} } }, () => ${JSON.stringify(version)});`,
    extra,
  ].join('\n'));
  return file;
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

/** The supervisor's stdout as messages, and a way to write one to its stdin. */
function wire(dev: ReturnType<typeof startMcpkit>) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire messages, asserted field by field
  const messages: Record<string, any>[] = [];
  let partial = '';
  dev.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) messages.push(JSON.parse(line));
  });
  return { messages, send: (m: unknown) => dev.child.stdin.write(`${JSON.stringify(m)}\n`) };
}

describe('mcpkit dev --stdio', () => {
  it('keeps the client connected across a reload: handshake replayed, list_changed sent, new code answers', async () => {
    const dir = join(temp.dir, 'stdio');
    mkdirSync(dir, { recursive: true });
    const entry = writeServer(dir, 'v1');
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'dev', '--stdio', entry], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'sdk', version: '1' });
    const errors: Error[] = [];
    client.onerror = (e) => errors.push(e);
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: 'version', arguments: {} }))).toBe('v1');

    writeServer(dir, 'v2', "server.tool('added', { input: { type: 'object', properties: {} } }, () => 'new tool');");
    await eventually(() => changes > 0);
    expect(textOf(await client.callTool({ name: 'version', arguments: {} }))).toBe('v2');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['version', 'added']);

    writeFileSync(entry, 'this is not javascript(');
    await eventually(() => stderr.includes('the previous version keeps serving'));
    expect(textOf(await client.callTool({ name: 'version', arguments: {} }))).toBe('v2');
    await client.close();
    expect(errors).toEqual([]);
  });
});

describe('mcpkit dev --stdio, on the wire', () => {
  it('answers a request the old process left unanswered with an error, then list_changed; replays setLevel', async () => {
    const dir = join(temp.dir, 'wire');
    mkdirSync(dir, { recursive: true });
    const slow = "server.tool('slow', { input: { type: 'object', properties: {} } }, (_a, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', r)));";
    const entry = writeServer(dir, 'v1', slow);
    const dev = startMcpkit(['dev', '--stdio', entry]);
    const { messages, send } = wire(dev);
    send(INITIALIZE);
    send(INITIALIZED);
    send({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    await eventually(() => messages.some((m) => m['id'] === 2));
    await dev.waitForStderr(/serving/);

    writeServer(dir, 'v2', slow);
    await eventually(() => messages.some((m) => m['method'] === 'notifications/tools/list_changed'));
    const failed = messages.find((m) => m['id'] === 3)!;
    expect(failed['error']).toEqual({ code: -32603, message: 'mcpkit dev: the server reloaded while handling tools/call; send it again' });
    expect(messages.indexOf(failed)).toBeLessThan(messages.findIndex((m) => m['method'] === 'notifications/tools/list_changed'));

    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'version', arguments: {} } });
    await eventually(() => messages.some((m) => m['id'] === 4));
    expect(messages.find((m) => m['id'] === 4)!['result'].content).toEqual([{ type: 'text', text: 'v2' }]);
    expect(messages.filter((m) => m['id'] === 1)).toHaveLength(1); // the replayed initialize is not forwarded
    dev.child.stdin.end();
    expect(await dev.exited).toBe(0);
  });
});

describe('mcpkit dev --stdio, when the first start fails', () => {
  it('answers each request with an error that says why, and serves once the file is fixed', async () => {
    const dir = join(temp.dir, 'broken-first');
    mkdirSync(dir, { recursive: true });
    const entry = join(dir, 'server.mjs');
    writeFileSync(entry, "throw new Error('no database configured');");
    const dev = startMcpkit(['dev', '--stdio', entry]);
    const { messages, send } = wire(dev);
    send(INITIALIZE);
    await eventually(() => messages.some((m) => m['id'] === 1));
    const refused = messages.find((m) => m['id'] === 1)!;
    expect(refused['error']['code']).toBe(-32603);
    expect(refused['error']['message']).toContain('mcpkit dev: the server is not running');
    expect(refused['error']['message']).toContain('no database configured');
    expect(refused['error']['message']).toContain('send initialize again');

    writeServer(dir, 'fixed');
    await dev.waitForStderr(/reloaded/);
    send({ ...INITIALIZE, id: 2 });
    await eventually(() => messages.some((m) => m['id'] === 2));
    expect(messages.find((m) => m['id'] === 2)!['result']['serverInfo']).toEqual({ name: 'dev-fixture', version: '1.0.0' });
    send(INITIALIZED);
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'version', arguments: {} } });
    await eventually(() => messages.some((m) => m['id'] === 3));
    expect(messages.find((m) => m['id'] === 3)!['result'].content).toEqual([{ type: 'text', text: 'fixed' }]);
    dev.child.stdin.end();
    expect(await dev.exited).toBe(0);
  });
});

describe('mcpkit dev (HTTP)', () => {
  it('keeps the port across reloads; a broken save leaves the previous version serving', async () => {
    const dir = join(temp.dir, 'http');
    mkdirSync(dir, { recursive: true });
    const entry = writeServer(dir, 'v1');
    const port = await freePort();
    const dev = startMcpkit(['dev', entry, '--port', String(port)]);
    await dev.waitForStderr(/serving .* on http/);
    const url = `http://127.0.0.1:${port}/mcp`;
    const call = async () => textOf(JSON.parse((await mcpkit(['call', url, 'version'])).stdout));
    expect(await call()).toBe('v1');

    writeServer(dir, 'v2');
    await dev.waitForStderr(/reloaded/);
    expect(await call()).toBe('v2');

    writeFileSync(entry, 'this is not javascript(');
    await dev.waitForStderr(/the previous version keeps serving/);
    expect(await isListening(port)).toBe(true);
    expect(await call()).toBe('v2');

    dev.child.kill('SIGTERM');
    expect(await dev.exited).toBe(0);
    await eventually(async () => !(await isListening(port)));
  });

  it('an entry that exports no server is explained; a missing entry is a usage error', async () => {
    const dir = join(temp.dir, 'none');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'empty.mjs'), 'export const nothing = 1;\n');
    const port = await freePort();
    const dev = startMcpkit(['dev', join(dir, 'empty.mjs'), '--port', String(port)]);
    await dev.waitForStderr(/exports no server/);
    expect((await mcpkit(['dev', join(dir, 'missing.mjs')])).code).toBe(2);
    expect((await mcpkit(['dev', join(dir, 'empty.mjs'), '--stdio', '--port', '1'])).code).toBe(2);
  });
});


describe('mcpkit dev: a syntax error', () => {
  it('on reload names file:line:column and shows the offending line, not the loader internals; the previous version keeps serving', async () => {
    const dir = join(temp.dir, 'syntax');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'helper.mjs'), "export const greeting = 'v1';\n");
    const entry = writeServer(dir, 'v1', "import { greeting } from './helper.mjs';\nvoid greeting;");
    const port = await freePort();
    const dev = startMcpkit(['dev', entry, '--port', String(port)]);
    await dev.waitForStderr(/serving .* on http/);
    const call = async () => textOf(JSON.parse((await mcpkit(['call', `http://127.0.0.1:${port}/mcp`, 'version'])).stdout));
    expect(await call()).toBe('v1');
    writeFileSync(join(dir, 'helper.mjs'), "export const greeting = 'v1';\nconst broken = greeting greeting;\n");
    await eventually(() => dev.stderr().includes('keeps serving'));
    expect(dev.stderr()).toContain("helper.mjs:2:25: SyntaxError: Unexpected identifier 'greeting'\n  const broken = greeting greeting;\n");
    expect(dev.stderr()).not.toContain('node:internal');
    expect(dev.stderr()).toContain('the previous version keeps serving');
    expect(await call()).toBe('v1');
  });
});
