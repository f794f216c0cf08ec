/**
 * A request the transport cannot encode (a BigInt or a cycle in its arguments: JSON.stringify throws
 * inside a synchronous send, as stdio's is) rejects with that error and leaves nothing in flight: no
 * maxPendingRequests slot held, no deadline armed, no promise left to reject when the client closes
 * (which was an unhandled rejection, fatal to the process).
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StdioClientTransport } from '../../src/client.js';
import { LEGACY, MODERN } from '../support/revisions.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const cyclic = (): Record<string, unknown> => {
  const value: Record<string, unknown> = {};
  value['self'] = value;
  return value;
};

describe.each([LEGACY, MODERN] as const)('a request stdio cannot encode, %s', (version) => {
  it('rejects with the encoding error and holds no slot, deadline or promise after it', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    cleanup.push(async () => process.off('unhandledRejection', onUnhandled));
    const client = new Client({ protocolVersion: version, maxPendingRequests: 1, requestTimeoutMs: 60_000 });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['examples/everything-server/main.js', '--stdio'], cwd: root, graceMs: 200 }));
    for (const args of [{ n: 1n }, cyclic()]) {
      await expect(client.callTool('test_simple_text', args)).rejects.toThrow(TypeError);
      // One slot only: the call that could not be sent must not hold it.
      const result = await client.callTool('test_simple_text', {});
      expect(result.content[0]).toMatchObject({ type: 'text' });
    }
    await client.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });
});
