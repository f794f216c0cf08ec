/**
 * Request timeouts share one timer per client (src/client/deadlines.ts): calls of different lengths
 * and timeouts in flight together each time out at their own deadline and no other, progress
 * restarts a deadline only with resetTimeoutOnProgress, and a settled call is never timed out later.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { Client, McpTransportError, StreamableHttpTransport } from '../../src/client.js';
import { listen } from '../../src/adapters/node.js';
import { McpServer } from '../../src/server/server.js';
import { LEGACY, MODERN } from '../support/revisions.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function connected(version: typeof LEGACY | typeof MODERN): Promise<Client> {
  const server = new McpServer({ name: 'slow', version: '1.0.0' });
  server.tool('sleep', { input: z.object({ ms: z.number() }) }, async ({ ms }) => (await sleep(ms), `slept ${ms}`));
  server.tool('ticks', { input: z.object({ ticks: z.number(), every: z.number() }) }, async ({ ticks, every }, ctx) => {
    for (let i = 1; i <= ticks; i++) {
      await sleep(every);
      await ctx.progress(i, ticks);
    }
    return 'ticked';
  });
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  const client = new Client({ protocolVersion: version });
  await client.connect(new StreamableHttpTransport(listener.url));
  cleanup.push(() => client.close());
  return client;
}

const outcome = (run: Promise<unknown>): Promise<string> =>
  run.then(
    () => 'ok',
    (error: unknown) => (error instanceof McpTransportError ? error.kind : String(error)),
  );

describe.each([LEGACY, MODERN] as const)('request timeouts, %s', (version) => {
  it('calls of mixed lengths and timeouts in flight together: only those past their own deadline time out', async () => {
    const client = await connected(version);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ ms: fc.integer({ min: 0, max: 120 }), timeoutMs: fc.constantFrom(0, 40, 5000, 10_000) }), { minLength: 1, maxLength: 12 }), async (calls) => {
        const results = await Promise.all(calls.map(({ ms, timeoutMs }) => outcome(client.callTool('sleep', { ms }, { timeoutMs }))));
        // 5 s and more (or none) is far past the longest sleep; 40 ms is well short of a sleep of 100 ms and more.
        calls.forEach(({ ms, timeoutMs }, i) => {
          if (timeoutMs !== 40) expect(results[i], `sleep ${ms} ms, timeout ${timeoutMs} ms`).toBe('ok');
          else if (ms >= 100) expect(results[i], `sleep ${ms} ms, timeout 40 ms`).toBe('timeout');
        });
      }),
      { numRuns: 8 },
    );
    // Deadlines of settled calls left behind fire on nothing: a call after them all is answered normally.
    expect(await outcome(client.callTool('sleep', { ms: 0 }, { timeoutMs: 5000 }))).toBe('ok');
  });

  it('progress restarts the deadline only with resetTimeoutOnProgress', async () => {
    const client = await connected(version);
    const onProgress = (): void => undefined;
    // 8 × 60 ms is well past 300 ms; 60 ms between progress is well within it.
    const args = { ticks: 8, every: 60 };
    expect(await outcome(client.callTool('ticks', args, { timeoutMs: 300, onProgress }))).toBe('timeout');
    expect(await outcome(client.callTool('ticks', args, { timeoutMs: 300, onProgress, resetTimeoutOnProgress: true }))).toBe('ok');
  });
});

describe('the shared timeout timer', () => {
  it('keeps no process alive once its calls are settled (a 60 s default timeout, the client closed)', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const script = `
      import { Client, StdioClientTransport } from './dist/client.js';
      const client = new Client();
      await client.connect(new StdioClientTransport({ command: process.execPath, args: ['examples/everything-server/main.js', '--stdio'], graceMs: 200 }));
      await client.callTool('test_simple_text', {});
      await client.close();
      console.log('closed');`;
    const started = Date.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(out.trim()).toBe('closed');
    expect(code).toBe(0);
    // A timer left ref'd would hold the process for the whole 60 s.
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
