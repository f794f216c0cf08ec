/**
 * A request the client gives up on (timed out, aborted) ends its HTTP exchange in both eras. On
 * 2026-07-28 ending it is the cancellation; on a legacy session notifications/cancelled is, and the
 * POST used to stay open until the server answered: a server that never answers a cancelled call
 * held one socket per abandoned call, without bound.
 */
import { expect, it } from 'vitest';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { eventually } from '../support/eventually.js';
import { silentOnCalls } from './support/silent-http.js';

const cleanup = cleanupAfterEach();

it.each(['2025-11-25', '2026-07-28'] as const)('%s: timed-out and aborted calls end their exchanges', async (version) => {
  const upstream = await silentOnCalls(version);
  cleanup.push(() => upstream.close());
  const client = new Client({ protocolVersion: version, requestTimeoutMs: 100 });
  cleanup.push(() => client.close());
  await client.connect(new StreamableHttpTransport(upstream.url, { openGetStream: false }));
  const before = upstream.open();
  const failures: string[] = [];
  for (let i = 0; i < 5; i++) await client.callTool('slow', {}).catch((error: { kind?: string }) => failures.push(String(error.kind)));
  for (let i = 0; i < 5; i++) {
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal }).catch((error: { kind?: string }) => failures.push(String(error.kind)));
    setTimeout(() => controller.abort(), 20);
    await call;
  }
  expect(failures).toEqual([...Array<string>(5).fill('timeout'), ...Array<string>(5).fill('aborted')]);
  // One kept-alive socket at most beside the ones open before: not one per abandoned call.
  await eventually(() => upstream.open() <= before + 1, { message: `sockets open: ${upstream.open()} (before the calls: ${before})` });
  if (version === '2025-11-25') {
    // On a legacy session the explicit cancellation still goes out, once per call.
    await eventually(() => upstream.cancelled.length === 10, { message: `notifications/cancelled received: ${upstream.cancelled.length}` });
    expect(new Set(upstream.cancelled).size).toBe(10);
  }
  // The client goes on working after every abandoned call.
  expect((await client.listTools()).tools).toEqual([]);
});
