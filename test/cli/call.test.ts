/** `mcpkit call`: arguments coerced by the schema, both eras, elicitation from stdin, exit codes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, killAll, mcpkit, startMcpkit, tempDir, type Running } from './support.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SERVER = 'test/cli/fixtures/tools-server.mjs';
const text = (stdout: string): string => JSON.parse(stdout).content[0].text;

let demo: Running;
let demoUrl: string;

beforeAll(async () => {
  demo = startMcpkit(['demo', '--port', '0']);
  demoUrl = (await demo.waitForStderr(/on (http:\/\/\S+\/mcp)/))[1]!;
});
afterAll(killAll);

describe('mcpkit call <entry>', () => {
  it('coerces key=value by the input schema (numbers, integers, booleans, strings that look like numbers, JSON arrays, nested keys)', async () => {
    const result = await mcpkit(['call', SERVER, 'echo', 'a=1.5', 'b=2', 'flag=true', 's=007', 'tags=["x","y"]', 'opts.x=y']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(text(result.stdout))).toEqual({ a: 1.5, b: 2, flag: true, s: '007', tags: ['x', 'y'], opts: { x: 'y' } });
  });

  it('--json passes the arguments as written', async () => {
    const result = await mcpkit(['call', SERVER, 'echo', '--json', '{"a":3,"s":"x"}', '--era', 'legacy']);
    expect(result.code).toBe(0);
    expect(JSON.parse(text(result.stdout))).toEqual({ a: 3, s: 'x' });
  });

  it('a value that does not fit the schema is a usage error (2), before anything is called', async () => {
    const result = await mcpkit(['call', SERVER, 'echo', 'a=1', 'b=1.5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('b: expected an integer, got "1.5"');
    const unknown = await mcpkit(['call', SERVER, 'echo', 'a=1', 'zzz=1']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown argument "zzz" (the schema has: a, b, flag, s, tags, opts)');
  });

  it('a result with isError: true exits 1 and is still printed', async () => {
    const result = await mcpkit(['call', SERVER, 'fail']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it went wrong' }] });
  });

  it('a JSON-RPC error (unknown tool, invalid arguments) exits 3 with the code and message', async () => {
    const unknown = await mcpkit(['call', SERVER, 'nope']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('error -32602');
    expect(unknown.stdout).toBe('');
    // The names it could have meant, before the server's refusal.
    expect(unknown.stderr).toMatch(/the server lists no tool "nope"; it lists [^\n]*\bfail\b/);
  });

  it.each(['legacy', '2026-07-28'])('answers elicitation from stdin (%s)', async (era) => {
    const result = await mcpkit(['call', SERVER, 'ask', '--era', era], { input: 'Ada\n\n' });
    expect(result.code).toBe(0);
    expect(text(result.stdout)).toBe('Hello, Ada x2');
    expect(result.stderr).toContain('? Who are you?');
  });

  it('stdin at its end declines the elicitation; !cancel cancels it', async () => {
    expect(text((await mcpkit(['call', SERVER, 'ask'])).stdout)).toBe('no answer (decline)');
    expect(text((await mcpkit(['call', SERVER, 'ask', '--era', 'legacy'], { input: '!cancel\n' })).stdout)).toBe('no answer (cancel)');
  });

  it('an entry that crashes while loading exits 4 and shows its stderr', async () => {
    const result = await mcpkit(['call', 'test/cli/fixtures/crashing-server.mjs', 'x']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('boom at startup');
  });

  it('a server that writes non-JSON on stdout is a protocol error (3) that says why', async () => {
    const result = await mcpkit(['call', 'test/cli/fixtures/noisy-server.mjs', 'hi']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('not JSON');
    expect(result.stderr).toContain('stdout (stdout carries only protocol messages): "starting up..."');
  });

  it('a missing file or tool name is a usage error', async () => {
    expect((await mcpkit(['call', 'nowhere.mjs', 'x'])).code).toBe(2);
    expect((await mcpkit(['call', SERVER])).code).toBe(2);
    expect((await mcpkit(['call', SERVER, 'echo', '--era', '1999'])).code).toBe(2);
  });

  it('a TypeScript entry runs where Node strips types, and says why not elsewhere (exit 5)', async () => {
    const dir = tempDir('ts-entry');
    const file = join(dir.dir, 'server.ts');
    writeFileSync(file, [
      `import { McpServer } from '${join(process.cwd(), 'dist', 'index.js')}';`,
      "const name: string = 'ts';",
      "const server = new McpServer({ name, version: '1.0.0' });",
      "server.tool('t', { input: { type: 'object', properties: {} } }, () => 'typed');",
      'export default server;',
    ].join('\n'));
    const result = await mcpkit(['call', file, 't']);
    dir.remove();
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    if (major > 22 || (major === 22 && minor >= 6)) {
      expect(result.code).toBe(0);
      expect(text(result.stdout)).toBe('typed');
    } else {
      expect(result.code).toBe(5);
      expect(result.stderr).toContain(`Node ${process.versions.node} cannot run TypeScript (type stripping arrived in Node 22.6)`);
    }
  });
});

describe('mcpkit call <url>', () => {
  it.each(['legacy', '2026-07-28'])('calls over Streamable HTTP (%s), with Mcp-Param headers where the schema asks', async (era) => {
    const result = await mcpkit(['call', demoUrl, 'test_x_mcp_header', 'region=eu', '--era', era]);
    expect(result.stderr).toBe('');
    expect(text(result.stdout)).toBe('Region: eu');
  });

  it('progress reaches stderr', async () => {
    const result = await mcpkit(['call', demoUrl, 'test_tool_with_progress']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('progress 100/100');
  });

  it('answers elicitation over HTTP on a legacy session', async () => {
    const result = await mcpkit(['call', demoUrl, 'test_elicitation', 'message=Sign in', '--era', 'legacy'], { input: 'ada\nada@example.com\n' });
    expect(text(result.stdout)).toBe('User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
  });

  it('a port nobody listens on exits 4', async () => {
    const result = await mcpkit(['call', `http://127.0.0.1:${await freePort()}/mcp`, 'x']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/cannot reach/i);
  });
});
