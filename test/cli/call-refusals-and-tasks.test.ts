/**
 * `mcpkit call` / `inspect` on what used to go wrong: an HTTP refusal whose JSON-RPC id is null,
 * an entry that starts its own server, and a tool the server runs as a task (2026-07-28).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import path from 'node:path';
import { killAll, mcpkit, startMcpkit, type Running } from './support.js';

// server-everything's stdio entry: a 2025-11-25 server whose simulate-research-query lists taskSupport "required".
const EVERYTHING_STDIO = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'transports', 'stdio.js');

const text = (stdout: string): string => JSON.parse(stdout).content[0].text;

let demo: Running;
let demoUrl: string;
let guarded: http.Server;
let guardedUrl: string;
const CHALLENGE = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"';

beforeAll(async () => {
  demo = startMcpkit(['demo', '--port', '0']);
  // What mcpkit's own auth gate answers without a token: 401, a challenge, and a JSON-RPC error with id null.
  guarded = http.createServer((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': CHALLENGE });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized: a bearer token is required' } }));
    });
  });
  await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve));
  guardedUrl = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}/mcp`;
  demoUrl = (await demo.waitForStderr(/on (http:\/\/\S+\/mcp)/))[1]!;
});
afterAll(async () => {
  await new Promise((resolve) => guarded.close(resolve));
  await killAll();
});

describe('an HTTP refusal with id null', () => {
  it.each(['call', 'inspect'])('%s prints the status, the server message and the challenge, and exits 3', async (command) => {
    const result = await mcpkit(command === 'call' ? ['call', guardedUrl, 'x'] : ['inspect', guardedUrl]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).toContain('a bearer token is required');
    expect(result.stderr).toContain(CHALLENGE);
  });

  it('an unknown session (HTTP 404) says so and exits 3', async () => {
    const result = await mcpkit(['call', demoUrl, 'test_simple_text', '--header', 'Mcp-Session-Id: gone']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('404');
    expect(result.stderr).toContain('Session not found');
  });
});

describe('an entry that starts its own server', () => {
  it('fails saying what was expected instead of waiting forever (exit 4)', async () => {
    const result = await mcpkit(['call', 'examples/everything-server/main.js', 'test_simple_text'], { env: { PORT: '0' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('exports no server and does not serve stdio');
    expect(result.stderr).toContain('export default server');
  });
});

describe('a tool the server runs as a task', () => {
  it("task: 'required' is created, awaited, and its result printed (tool error: exit 1)", async () => {
    const result = await mcpkit(['call', demoUrl, 'failing_job']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The job failed: the input data was rejected' }] });
    expect(result.stderr).toMatch(/task \S+: working/);
    expect(result.stderr).toMatch(/task \S+: completed/);
  });

  it('asks before the task starts (input_required), then awaits it', async () => {
    const result = await mcpkit(['call', demoUrl, 'test_tool_with_task'], { input: 'Ada\n' });
    expect(result.code).toBe(0);
    expect(text(result.stdout)).toBe('Hello, Ada! Your task is done.');
  });

  it('asks inside the task (tasks/update), then awaits it', async () => {
    const result = await mcpkit(['call', demoUrl, 'confirm_delete', 'filename=notes.txt'], { input: 'yes\n' });
    expect(result.code).toBe(0);
    expect(text(result.stdout)).toBe('Deleted notes.txt');
    expect(result.stderr).toMatch(/task \S+: input_required/);
  });

  it('a failed task is a protocol error (exit 3) with its code and message', async () => {
    const result = await mcpkit(['call', demoUrl, 'protocol_error_job']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('failed: error -32603: The job failed: its worker stopped responding');
  });

  it('on a legacy session the same tool simply runs', async () => {
    const result = await mcpkit(['call', demoUrl, 'failing_job', '--era', 'legacy']);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('task ');
  });

  it('on 2025-11-25 a tool listed with taskSupport "required" (server-everything) runs as a task', async () => {
    const result = await mcpkit(['call', EVERYTHING_STDIO, 'simulate-research-query', 'topic=compilers']);
    expect(result.code).toBe(0);
    expect(text(result.stdout)).toContain('# Research Report: compilers');
    expect(result.stderr).toMatch(/task \S+: (working|completed)/);
  });
});
