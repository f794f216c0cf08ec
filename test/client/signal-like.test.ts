/**
 * `RequestOptions.signal` takes any AbortSignalLike, not only an AbortSignal: a flag with
 * `aborted`, `reason` and add/removeEventListener('abort') cancels the request it is given to,
 * over Streamable HTTP in both eras and over stdio, and the server's handler sees the cancellation.
 * The gateway relies on this to hand a downstream request's abort flag to its upstream call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, McpTransportError, StdioClientTransport, StreamableHttpTransport, type PerRequestOptions } from '../../src/client.js';
import { listen } from '../../src/adapters/node.js';
import { McpServer } from '../../src/server/server.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { FlagSignal as Flag } from '../support/flag-signal.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

/** A server whose `hang` tool runs until its own signal aborts; `cancelled` resolves when it does. */
function hangingServer(): { server: McpServer; started: Promise<void>; cancelled: Promise<boolean> } {
  const server = new McpServer({ name: 'hang', version: '1.0.0' });
  let start!: () => void;
  let cancel!: (aborted: boolean) => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  const cancelled = new Promise<boolean>((resolve) => (cancel = resolve));
  server.tool('hang', { input: z.object({}) }, (_args, ctx) => {
    start();
    return new Promise<string>((resolve) => {
      ctx.signal.addEventListener('abort', () => (cancel(true), resolve('cancelled')), { once: true });
    });
  });
  server.tool('echo', { input: z.object({ n: z.number() }) }, ({ n }) => `echo ${n}`);
  return { server, started, cancelled };
}

async function httpClient(version: string, server: McpServer): Promise<Client> {
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  const client = new Client({ protocolVersion: version as typeof LEGACY });
  await client.connect(new StreamableHttpTransport(listener.url));
  cleanup.push(() => client.close());
  return client;
}

describe.each([LEGACY, MODERN])('a signal that is only AbortSignalLike (HTTP, %s)', (version) => {
  it('aborting it mid-call rejects the call as aborted and cancels it on the server', async () => {
    const { server, started, cancelled } = hangingServer();
    const client = await httpClient(version, server);
    const flag = new Flag();
    const options: PerRequestOptions = { signal: flag };
    const call = client.callTool('hang', {}, options);
    await started;
    flag.abort(new Error('the user gave up'));
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpTransportError);
    expect((error as McpTransportError).kind).toBe('aborted');
    expect(((error as Error).cause as Error).message).toBe('the user gave up');
    expect(await cancelled).toBe(true);
    // The client works on after it.
    expect((await client.callTool('echo', { n: 1 })).content).toEqual([{ type: 'text', text: 'echo 1' }]);
  });

  it('an already aborted one is refused before anything is sent', async () => {
    const { server } = hangingServer();
    const client = await httpClient(version, server);
    const flag = new Flag();
    flag.abort('no');
    await expect(client.callTool('echo', { n: 2 }, { signal: flag })).rejects.toThrow(/aborted before it was sent/);
  });

  it('one flag shared by 200 calls that complete holds at most one listener after them', async () => {
    const { server } = hangingServer();
    const client = await httpClient(version, server);
    const flag = new Flag();
    const results = await Promise.all(Array.from({ length: 200 }, (_, n) => client.callTool('echo', { n }, { signal: flag })));
    expect(results.map((r) => r.content[0])).toEqual(Array.from({ length: 200 }, (_, n) => ({ type: 'text', text: `echo ${n}` })));
    expect(flag.listeners.size).toBeLessThanOrEqual(1);
  });
});

describe('a signal that is only AbortSignalLike (stdio)', () => {
  it('aborting it mid-call rejects the call and the server process cancels the handler', async () => {
    // Built from dist, like the other spawned fixtures: the handler writes to stderr once its signal aborts.
    const dist = new URL('../../dist/index.js', import.meta.url).href;
    const script = [
      `import { McpServer, StdioTransport } from ${JSON.stringify(dist)};`,
      "const server = new McpServer({ name: 'hang', version: '1.0.0', transport: new StdioTransport() });",
      "server.tool('hang', { input: { type: 'object' } }, (_a, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => { process.stderr.write('cancelled\\n'); resolve('x'); })));",
      'await server.start();',
    ].join('\n');
    const stderr: string[] = [];
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--input-type=module', '-e', script], onStderr: (text) => void stderr.push(text) });
    const client = new Client({ protocolVersion: LEGACY });
    await client.connect(transport);
    cleanup.push(() => client.close());
    const flag = new Flag();
    const call = client.callTool('hang', {}, { signal: flag });
    // The handler is running once the request has been read; a round trip after it proves that.
    await client.ping();
    flag.abort(new Error('stop'));
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
    await expect.poll(() => stderr.join('')).toContain('cancelled');
  });
});
