/**
 * What goes over the wire to an HTTP upstream per proxied call: many calls at once on one
 * downstream session each get their own answer (each upstream request has its own id, matched
 * back), and each is exactly one upstream POST, counted at the upstream's own HTTP server — no
 * handshake, list or second request per call — for both downstream eras.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen } from '../../src/adapters/node.js';
import { createGateway } from '../../src/gateway.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { checkedClient } from './wire-fetch.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

/** An upstream whose `echo` answers its `n` after a delay that shuffles the order of the answers. */
async function echoUpstream(): Promise<{ url: string; posts: () => number; calls: () => number }> {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  let calls = 0;
  server.tool('echo', { description: 'n back, late', input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }, async (args) => {
    calls++;
    const n = Number(args['n']);
    await new Promise((resolve) => setTimeout(resolve, (Math.abs(n) * 7) % 13));
    return `n=${n}`;
  });
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  let posts = 0;
  listener.server.on('request', (req: { method?: string }) => void (req.method === 'POST' && posts++));
  return { url: listener.url, posts: () => posts, calls: () => calls };
}

describe.each([LEGACY, MODERN] as const)('calls at once through the gateway, %s downstream', (version) => {
  it('each gets its own answer, and each is one upstream POST', async () => {
    const upstream = await echoUpstream();
    const gateway = createGateway({ url: upstream.url });
    cleanup.push(() => gateway.close());
    expect(await gateway.ready()).toEqual([]);
    const listener = await listen(gateway.server, { port: 0 });
    cleanup.push(() => listener.close());
    const { client, wire } = await checkedClient(listener.url, version, cleanup);
    await client.callTool('echo', { n: -1 }); // this owner's upstream link opens here
    const [posts, calls] = [upstream.posts(), upstream.calls()];
    const N = 48;
    const results = await Promise.all(Array.from({ length: N }, (_, n) => client.callTool('echo', { n })));
    expect(results.map((r) => (r.content as { text: string }[])[0]!.text)).toEqual(Array.from({ length: N }, (_, n) => `n=${n}`));
    expect(upstream.calls() - calls).toBe(N);
    expect(upstream.posts() - posts).toBe(N);
    expect(wire.problems).toEqual([]);
  });
});
