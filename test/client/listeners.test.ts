/**
 * Many calls in flight at once leave no listener pile on a long-lived signal:
 * 64 concurrent calls over Streamable HTTP, both eras, with a `fetch` that
 * listens to each request's signal (as fetch polyfills do) and with one caller
 * signal shared by every call, emit no process warning (MaxListenersExceededWarning).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { listen, type McpHttpListener } from '../../src/adapters/node.js';
import { McpServer } from '../../src/server/server.js';

const CALLS = 64;
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** A tool that answers only once all CALLS calls are running, so they are truly in flight together. */
async function barrierServer(): Promise<McpHttpListener> {
  const server = new McpServer({ name: 'barrier', version: '1.0.0' });
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  server.tool('wait', { input: z.object({ n: z.number() }) }, async ({ n }) => {
    if (++arrived === CALLS) open();
    await all;
    return `done ${n}`;
  });
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  return listener;
}

/** Like many fetch implementations: an abort listener on the request's signal, removed when the answer is in (it aborts a signal of its own). */
const listeningFetch = async (input: string | URL, init: RequestInit): Promise<Response> => {
  const signal = init.signal ?? undefined;
  const own = new AbortController();
  const onAbort = (): void => own.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort);
  try {
    return await fetch(input, { ...init, signal: own.signal });
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
};

async function warningsDuring(run: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    await run();
    // Warnings are emitted on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}

describe.each(['2025-11-25', '2026-07-28'] as const)(`${CALLS} concurrent calls (%s)`, (version) => {
  it.each(['a listening fetch', 'one shared caller signal'] as const)('emit no MaxListenersExceededWarning with %s', async (variant) => {
    const listener = await barrierServer();
    const client = new Client({ protocolVersion: version });
    cleanup.push(() => client.close());
    await client.connect(new StreamableHttpTransport(listener.url, variant === 'a listening fetch' ? { fetch: listeningFetch } : {}));
    const shared = new AbortController();
    const warnings = await warningsDuring(async () => {
      const results = await Promise.all(Array.from({ length: CALLS }, (_, n) => client.callTool('wait', { n }, variant === 'one shared caller signal' ? { signal: shared.signal } : {})));
      expect(results.map((r) => r.content[0])).toEqual(Array.from({ length: CALLS }, (_, n) => ({ type: 'text', text: `done ${n}` })));
    });
    expect(warnings).toEqual([]);
  });
});
