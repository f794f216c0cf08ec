/**
 * Behind a cluster (`sessions.cluster`), one downstream session has a live copy per instance, and
 * a copy gets a new connection when its record changed on another instance (logging/setLevel,
 * subscribe there). Only the session's end may close the upstream session a proxy keeps for it:
 * the connection a copy replaces is not the session.
 */
import { afterEach, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen } from '../../src/adapters/node.js';
import { createProxy } from '../../src/gateway.js';
import { MemorySharedSessionStore } from '../../src/stores/shared-memory.js';
import { eventually } from '../support/eventually.js';
import { countingUpstream } from './counting-upstream.js';
import { LEGACY } from '../support/revisions.js';
import { memoryChannels, openSession, post, rpc, sessionHeaders } from '../transports/http/support.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

const upstream = (): ReturnType<typeof countingUpstream> => countingUpstream(cleanup);

async function answer(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream') ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).at(-1)! : text;
  return JSON.parse(json) as Record<string, unknown>;
}

it('a copy rebuilt after the record changed on another instance keeps its upstream session; the session\'s end closes it', async () => {
  const up = await upstream();
  const sessions = new MemorySharedSessionStore();
  const channel = memoryChannels();
  const instance = async (id: string): Promise<string> => {
    const server = new McpServer({ name: 'gw', version: '1.0.0', protocolVersions: [LEGACY] });
    const proxy = createProxy({ url: up.url }, { name: 'up' });
    cleanup.push(() => proxy.close());
    server.mount(proxy, { namespace: 'up' });
    const listener = await listen(server, { port: 0, sessions: { cluster: { sessions, channel: channel(id) } } });
    cleanup.push(() => listener.close());
    return listener.url;
  };
  const a = await instance('a');
  const b = await instance('b');

  const session = await openSession(a);
  const call = async (url: string, id: number): Promise<unknown> => (await answer(await post(url, rpc(id, 'tools/call', { name: 'up_echo', arguments: {} }), sessionHeaders(session))))['result'];

  expect(await call(a, 1)).toEqual({ content: [{ type: 'text', text: 'echo' }] }); // A's upstream session is open
  await answer(await post(b, rpc(2, 'logging/setLevel', { level: 'debug' }), sessionHeaders(session))); // the record changes on B
  expect(await call(a, 3)).toEqual({ content: [{ type: 'text', text: 'echo' }] }); // A rebuilds its copy from the new record
  expect(up.closed()).toBe(0);

  const ended = await fetch(b, { method: 'DELETE', headers: sessionHeaders(session) });
  expect(ended.ok).toBe(true);
  await eventually(() => up.closed() === 1, { message: 'A\'s upstream session closed with the downstream session' });
});
