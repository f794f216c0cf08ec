/**
 * stdio after EOF (issue 28.6): in-flight work is aborted once `eofGraceMs` passes after stdin
 * ends, and a process whose handler ignores the abort still exits, `eofExitMs` (1 s) later,
 * saying why on stderr. A spawned process; the test waits for the exit with a generous deadline
 * and asserts that it happens, never how fast.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/stubborn-server.mjs', import.meta.url));
const NUMBER_TIMERS = fileURLToPath(new URL('../../fixtures/number-timers.mjs', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function start(env: Record<string, string>, nodeArgs: string[] = []): { child: ChildProcessWithoutNullStreams; stdout: () => string; stderr: () => string; exit: { code: number | null | undefined } } {
  const child = spawn(process.execPath, [...nodeArgs, FIXTURE], { stdio: 'pipe', env: { ...process.env, ...env } });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const exit: { code: number | null | undefined } = { code: undefined };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.once('exit', (code) => (exit.code = code));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

const lines = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'stubborn', arguments: {} } },
];

describe('stdio after EOF', () => {
  it.each([
    ['Node timers', []],
    // Deno's global setTimeout returns a number: the exit timer must not call .unref() on it.
    ['timers that return numbers (as Deno\'s)', ['--import', NUMBER_TIMERS]],
  ])('a handler that ignores its abort signal does not keep the process alive (%s)', async (_timers, nodeArgs) => {
    const server = start({ STUBBORN_EOF_GRACE_MS: '100' }, nodeArgs);
    server.child.stdin.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    await eventually(() => server.stdout().includes('"id":1'), { deadlineMs: 20_000, message: 'initialize was answered' });
    server.child.stdin.end();
    await eventually(() => server.exit.code !== undefined, { deadlineMs: 30_000, message: 'the process exited after stdin ended' });
    expect(server.exit.code).toBe(0);
    const stderr = server.stderr();
    const aborted = stderr.indexOf('stubborn: aborted, and ignoring it');
    const exiting = stderr.indexOf('mcpkit: stdin ended and 1 request(s) still ran 1000 ms after they were aborted (their handlers ignore ctx.signal); exiting');
    expect(aborted).toBeGreaterThan(-1);
    expect(exiting).toBeGreaterThan(aborted);
  });

});
