/**
 * What a test file starts (listeners, clients, gateways) is undone after each test, newest
 * first; an undo that fails is ignored, since the test's own assertions say what broke.
 * Called at a file's top level, so the hook belongs to that file even when files share a
 * process (the quick project imports this module once per worker).
 */
import { afterEach } from 'vitest';
import { listen, type ListenOptions, type McpHttpListener } from '../../src/adapters/node.js';
import type { McpServer } from '../../src/index.js';

export type Cleanup = (() => Promise<unknown> | void)[];

export function cleanupAfterEach(): Cleanup {
  const cleanup: Cleanup = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await Promise.resolve().then(fn).catch(() => undefined);
  });
  return cleanup;
}

/** `server` on a free port of 127.0.0.1, closed by `cleanup`. */
export async function serveHttp(cleanup: Cleanup, server: McpServer, options: ListenOptions = {}): Promise<McpHttpListener> {
  const listener = await listen(server, { port: 0, ...options });
  cleanup.push(() => listener.close());
  return listener;
}
