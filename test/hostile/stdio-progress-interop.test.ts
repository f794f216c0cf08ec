/**
 * The official SDK clients (v1 and v2) over stdio receive every progress notification of a
 * tool that reports progress and returns at once. They handle a notification a microtask
 * after a response read in the same chunk, and drop progress for a request already
 * answered; mcpkit writes the response in a later write (`notificationGapMs`), so the
 * notifications are handled first. That is best effort: a client stalled for longer than the
 * gap reads both at once. Here the clients share two cores with the rest of the suite and stall
 * for milliseconds, so the server runs with a 50 ms gap (the default is 1 ms: see docs/stdio.md),
 * and each client warms up with a few calls (loading code) before the calls that are counted.
 */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./crash-server.mjs', import.meta.url));
const WARM_UP = 3;
const CALLS = 5;
const EXPECTED = [
  { progress: 1, total: 3, message: 'one' },
  { progress: 2, total: 3, message: 'two' },
  { progress: 3, total: 3, message: 'three' },
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const server = {
  command: process.execPath,
  args: [FIXTURE, '--mode', 'stdio'],
  env: { ...(process.env as Record<string, string>), CRASH_GAP: '50' },
  stderr: 'pipe' as const,
};

describe('progress over stdio with the official SDK clients', () => {
  it(`v1 (@modelcontextprotocol/sdk): all three notifications of each of ${CALLS} calls arrive before the result`, async () => {
    const client = new ClientV1({ name: 'progress-v1', version: '1.0.0' });
    await client.connect(new StdioClientTransportV1(server));
    closers.push(() => client.close());
    for (let i = 0; i < WARM_UP; i++) await client.callTool({ name: 'progress', arguments: {} }, undefined, { onprogress: () => undefined });
    for (let i = 0; i < CALLS; i++) {
      const seen: unknown[] = [];
      const result = await client.callTool({ name: 'progress', arguments: {} }, undefined, { onprogress: (p) => seen.push(p) });
      expect(result).toEqual({ content: [{ type: 'text', text: 'progressed' }] });
      expect(seen).toEqual(EXPECTED);
    }
  });

  it(`v2 (@modelcontextprotocol/client): all three notifications of each of ${CALLS} calls arrive before the result`, async () => {
    const client = new ClientV2({ name: 'progress-v2', version: '2.0.0' });
    await client.connect(new StdioClientTransportV2(server));
    closers.push(() => client.close());
    for (let i = 0; i < WARM_UP; i++) await client.callTool({ name: 'progress', arguments: {} }, { onprogress: () => undefined });
    for (let i = 0; i < CALLS; i++) {
      const seen: unknown[] = [];
      const result = await client.callTool({ name: 'progress', arguments: {} }, { onprogress: (p) => seen.push(p) });
      expect(result).toEqual({ content: [{ type: 'text', text: 'progressed' }] });
      expect(seen).toEqual(EXPECTED);
    }
  });
});
