/**
 * `mcpkit demo`: what MCP clients spawn. Over stdio nothing but JSON lines may
 * reach stdout; over HTTP it serves every revision; `npm start` is a launcher
 * that, when killed, takes the demo with it.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, ROOT, eventually, freePort, isListening, killAll, mcpkit, run, startMcpkit } from './support.js';

afterEach(killAll);

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

describe('mcpkit demo', () => {
  it('--stdio writes only JSON-RPC lines on stdout and exits when stdin closes', async () => {
    const lines = [initialize, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ada' } } }];
    const result = await mcpkit(['demo', '--stdio'], { input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' });
    expect(result.code).toBe(0);
    const out = result.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(out.map((m) => m.id)).toEqual([1, 2]);
    expect(out[0].result.serverInfo.name).toBe('mcpkit-everything-server');
    expect(out[1].result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(result.stderr).toContain('the everything-server on stdio');
  });

  it('--stdio warns under an npm script, which prints a banner on stdout, and not under npx, which prints none', async () => {
    const input = `${JSON.stringify(initialize)}\n`;
    const script = await mcpkit(['demo', '--stdio'], { input, env: { npm_lifecycle_event: 'start', npm_command: 'run-script' } });
    expect(script.stderr).toContain('running under an npm script');
    const npx = await mcpkit(['demo', '--stdio'], { input, env: { npm_lifecycle_event: 'npx', npm_command: 'exec' } });
    expect(npx.stderr).toContain('the everything-server on stdio');
    expect(npx.stderr).not.toContain('npm script');
  });

  it('the official SDK client spawns the documented command and uses it', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'demo', '--stdio'], stderr: 'pipe' });
    const client = new Client({ name: 'sdk', version: '1' });
    const errors: Error[] = [];
    client.onerror = (e) => errors.push(e);
    await client.connect(transport);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('test_simple_text');
    expect(await client.callTool({ name: 'greet', arguments: { name: 'Bo' } })).toMatchObject({ content: [{ type: 'text', text: 'Hello, Bo!' }] });
    await client.close();
    expect(errors).toEqual([]);
  });

  it('serves HTTP on the port asked for, every era', async () => {
    const demo = startMcpkit(['demo', '--port', '0']);
    const [, url] = await demo.waitForStderr(/on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    const response = await fetch(url!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-method': 'server/discover', 'mcp-protocol-version': '2026-07-28' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('mcpkit-everything-server');
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  });

  it('reads MCPKIT_TRUST_PROXY as the trustProxy option: a malformed value refuses to start, naming it', async () => {
    const refused = await mcpkit(['demo', '--port', '0'], { env: { MCPKIT_TRUST_PROXY: '10.0.0.0/40' } });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('trustProxy: "10.0.0.0/40" is not an IP address or CIDR range');
    const demo = startMcpkit(['demo', '--port', '0'], { env: { MCPKIT_TRUST_PROXY: 'loopback, 10.0.0.0/8' } });
    await demo.waitForStderr(/on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  });

  it('stops when the npm process that launched it is killed (no orphan left listening)', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
    await eventually(() => isListening(port));
    npm.kill('SIGKILL'); // the launcher dies without forwarding anything
    await eventually(async () => !(await isListening(port)));
  });

  it('refuses a bad port with a usage error (exit 2)', async () => {
    const result = await mcpkit(['demo', '--port', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port must be an integer');
  });
});

describe('mcpkit', () => {
  it('--help lists the commands and the exit codes', async () => {
    const result = await mcpkit(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/commands:[\s\S]*demo/);
    expect(result.stdout).toContain('exit codes');
  });

  it('an unknown command is a usage error', async () => {
    const result = await mcpkit(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });

  it('`mcpkit gateway` (the package is mcpkit/gateway) points to `mcpkit proxy`', async () => {
    const result = await mcpkit(['gateway', '--config', 'mcp.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "gateway" — did you mean `mcpkit proxy`?');
  });

  it("a name of Object.prototype's (toString, __proto__) is an unknown command, not a crash", async () => {
    for (const name of ['toString', '__proto__', 'constructor']) {
      const result = await mcpkit([name]);
      expect(result.stderr).toContain(`unknown command "${name}"`);
      expect(result.code).toBe(2);
    }
  });

  it('--version prints the package version', async () => {
    const result = await run(process.execPath, [BIN, '--version']);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
