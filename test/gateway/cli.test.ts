/**
 * `mcpkit proxy` as a process: the config file, one command, one URL; over HTTP and stdio; driven
 * by the official SDK clients (v1 and v2) and mcpkit/client. Uses dist/ (bin/mcpkit.js).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { BIN, ROOT, killAll, mcpkit, startMcpkit, tempDir } from '../cli/support.js';

const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const MEMORY = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url));
const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
  await killAll();
});

const textOf = (result: object): string => (((result as { content?: unknown }).content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

function configFile(config: unknown): string {
  const temp = tempDir('mcpkit-proxy-');
  cleanup.push(() => temp.remove());
  const file = join(temp.dir, 'mcp.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe('mcpkit proxy', () => {
  it('--config: server-everything, server-memory and the mcpkit demo (stdio) behind one HTTP endpoint, for SDK v1, SDK v2 and mcpkit/client', async () => {
    const file = configFile({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
        memory: { command: process.execPath, args: [MEMORY] },
        demo: { command: process.execPath, args: [BIN, 'demo', '--stdio'] },
      },
    });
    const proxy = startMcpkit(['proxy', '--config', file, '--port', '0']);
    const [, url] = await proxy.waitForStderr(/on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    expect(proxy.stderr()).toContain('everything, memory, demo');

    const v1 = new SdkClient({ name: 'sdk-v1', version: '1.0.0' });
    await v1.connect(new StreamableHTTPClientTransport(new URL(url!)));
    cleanup.push(() => v1.close());
    expect(v1.getServerVersion()).toEqual({ name: 'mcpkit-proxy', version: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version });
    const { tools } = await v1.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['everything_echo', 'memory_read_graph', 'demo_test_simple_text']));
    expect(textOf(await v1.callTool({ name: 'everything_echo', arguments: { message: 'v1' } }))).toBe('Echo: v1');
    expect(textOf(await v1.callTool({ name: 'demo_test_simple_text', arguments: {} }))).not.toBe('');

    const v2 = new V2Client({ name: 'sdk-v2', version: '1.0.0' });
    await v2.connect(new V2Http(new URL(url!)));
    cleanup.push(() => v2.close());
    expect(textOf(await v2.callTool({ name: 'everything_echo', arguments: { message: 'v2' } }))).toBe('Echo: v2');

    const modern = new Client({ protocolVersion: '2026-07-28' });
    await modern.connect(new StreamableHttpTransport(url!));
    cleanup.push(() => modern.close());
    expect(textOf(await modern.callTool('everything_echo', { message: 'modern' }))).toBe('Echo: modern');
    const read = await modern.readResource('demo+test://static-text');
    expect(read.contents[0]).toMatchObject({ uri: 'demo+test://static-text' });
  }, 60_000);

  it('--stdio -- <command>: a stdio server given to a stdio client, unnamespaced', async () => {
    const client = new SdkClient({ name: 'sdk-v1', version: '1.0.0' });
    const transport = new SdkStdio({ command: process.execPath, args: [BIN, 'proxy', '--stdio', '--', process.execPath, EVERYTHING, 'stdio'], stderr: 'pipe' });
    await client.connect(transport);
    cleanup.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'through stdio' } }))).toBe('Echo: through stdio');
  }, 60_000);

  it('<url>: an HTTP server put behind the gateway, unnamespaced', async () => {
    const upstream = startMcpkit(['demo', '--port', '0']);
    const [, upstreamUrl] = await upstream.waitForStderr(/on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    const proxy = startMcpkit(['proxy', '--port', '0', upstreamUrl!]);
    const [, url] = await proxy.waitForStderr(/on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    for (const protocolVersion of ['2025-11-25', '2026-07-28'] as const) {
      const client = new Client({ protocolVersion });
      await client.connect(new StreamableHttpTransport(url!));
      cleanup.push(() => client.close());
      expect(textOf(await client.callTool('test_simple_text'))).not.toBe('');
    }
  }, 60_000);

  it('a misspelt config key: exit 2, naming the server, the key and the right one', async () => {
    const file = configFile({ mcpServers: { fs: { command: 'npx', arg: ['x'] } } });
    const result = await mcpkit(['proxy', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}: mcpServers.fs: unknown key \`arg\` in a stdio server — did you mean \`args\`?`);
  });

  it('usage errors: nothing to serve, two things, a URL that is not one', async () => {
    expect((await mcpkit(['proxy'])).stderr).toContain('needs what to serve');
    expect((await mcpkit(['proxy', 'http://a/mcp', '--', 'x'])).code).toBe(2);
    expect((await mcpkit(['proxy', 'server.js'])).stderr).toContain('a command to spawn goes after --');
  });

  it('no upstream reachable: exit 4', async () => {
    const result = await mcpkit(['proxy', '--port', '0', '--', join(process.cwd(), 'no-such-command')]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('could not be reached');
    expect(result.stderr).toContain('\nmcpkit proxy: no upstream could be reached');
    expect(result.stderr).not.toContain('mcpkit proxy: mcpkit proxy:');
  });
});
