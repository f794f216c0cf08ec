/**
 * Behind a cluster, an instance's copy of a session rebuilds its connection when the record
 * changed on another instance; the connection it replaces finishes the requests it runs. When the
 * session ends, those requests end with it, as the current connection's do: a call still running
 * on a replaced connection is aborted, not left to run for a session that is gone.
 */
import { afterEach, expect, it } from 'vitest';
import { McpServer } from '../../../src/index.js';
import { listen } from '../../../src/adapters/node.js';
import { MemorySharedSessionStore } from '../../../src/stores/shared-memory.js';
import { LEGACY } from '../../support/revisions.js';
import { eventually, memoryChannels, openSession, post, rpc, sessionHeaders } from './support.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

it('a session that ends aborts the calls still running on a connection its copy replaced', async () => {
  const sessions = new MemorySharedSessionStore();
  const channel = memoryChannels();
  let entered!: () => void;
  const running = new Promise<void>((resolve) => (entered = resolve));
  const aborted: string[] = [];
  const closed: string[] = [];
  const instance = async (id: string): Promise<string> => {
    const server = new McpServer({ name: 'gw', version: '1.0.0', protocolVersions: [LEGACY] });
    server.tool('wait', { description: 'waits until cancelled' }, (_args, ctx) => {
      entered();
      return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => (aborted.push(id), resolve('cancelled'))));
    });
    server.onSessionClosed(() => void closed.push(id));
    const listener = await listen(server, { port: 0, sessions: { cluster: { sessions, channel: channel(id) } } });
    cleanup.push(() => listener.close());
    return listener.url;
  };
  const a = await instance('a');
  const b = await instance('b');
  const session = await openSession(a);

  const waiting = post(a, rpc(1, 'tools/call', { name: 'wait', arguments: {} }), sessionHeaders(session)).then((r) => r.text(), () => '');
  await running; // on A's first connection
  await (await post(b, rpc(2, 'logging/setLevel', { level: 'debug' }), sessionHeaders(session))).text(); // the record changes on B
  await (await post(a, rpc(3, 'tools/list'), sessionHeaders(session))).text(); // A's copy gets a connection built from it
  expect(aborted).toEqual([]);

  expect((await fetch(b, { method: 'DELETE', headers: sessionHeaders(session) })).ok).toBe(true);
  await eventually(() => aborted.includes('a'), { message: 'the call on the replaced connection was aborted with the session' });
  await waiting;
  await eventually(() => closed.includes('a'), { message: 'A told its session closed' });
});
