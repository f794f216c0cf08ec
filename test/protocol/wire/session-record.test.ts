import { describe, expect, it } from 'vitest';
import { McpServer, MemoryNotificationBus } from '../../../src/index.js';
import { parseSessionRecord, type McpConnection, type SessionRecord } from '../../../src/protocol.js';
import { expectValidWire } from '../../support/wire-schema.js';
import { gate, settle } from '../../support/wire.js';

type Json = Record<string, unknown>;

/** One instance of a server: all instances share a bus, as processes behind a load balancer would. */
function instance(bus: MemoryNotificationBus, logged: unknown[][] = []): McpServer {
  const server = new McpServer({ name: 'records', version: '1.0.0', bus, logger: { error: (...args: unknown[]) => void logged.push(args) } });
  server.tool('media', { description: 'audio, then logs at two levels' }, async (_args, ctx) => {
    await ctx.log('info', 'an info line');
    await ctx.log('error', 'an error line');
    return { content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] };
  });
  server.resource('mem://note', { name: 'note', description: 'a note' }, () => ({ text: 'hello' }));
  server.resource('mem://other', { name: 'other', description: 'another' }, () => ({ text: 'there' }));
  return server;
}

function open(server: McpServer, options: { record?: SessionRecord; onRecordChange?: (record: SessionRecord) => void | Promise<void> } = {}) {
  const sent: Json[] = [];
  const send = (message: unknown): void => void sent.push(message as Json);
  const connection: McpConnection =
    options.record === undefined ? server.openConnection({ send, ...(options.onRecordChange && { onRecordChange: options.onRecordChange }) }) : server.restoreConnection(options.record, { send });
  let id = 0;
  const request = async (method: string, params: Json = {}): Promise<Json> => (await connection.handleMessage({ jsonrpc: '2.0', id: ++id, method, params })) as unknown as Json;
  return { connection, sent, request };
}

const INIT = { protocolVersion: '2024-11-05', capabilities: { roots: {} }, clientInfo: { name: 'old-client', version: '1.0' } };

describe('a session restored from its record', () => {
  it('continues on another instance: same revision, log level and subscriptions', async () => {
    const bus = new MemoryNotificationBus();
    const store = new Map<string, string>();
    const first = open(instance(bus), { onRecordChange: (record) => void store.set('s1', JSON.stringify(record)) });
    await first.request('initialize', INIT);
    await first.request('logging/setLevel', { level: 'warning' });
    await first.request('resources/subscribe', { uri: 'mem://note' });
    const saved = JSON.parse(store.get('s1')!) as unknown;
    expect(saved).toStrictEqual({
      v: 1,
      protocolVersion: '2024-11-05',
      clientInfo: { name: 'old-client', version: '1.0' },
      clientCapabilities: { roots: {} },
      serverCapabilities: first.connection.record!.serverCapabilities,
      logLevel: 'warning',
      subscriptions: ['mem://note'],
    });
    expect(first.connection.record).toStrictEqual(saved);
    first.connection.close();

    const second = instance(bus);
    const restored = open(second, { record: parseSessionRecord(saved) });
    expect(restored.connection.record).toStrictEqual(saved);
    // No initialize here: the session goes on in the revision it negotiated.
    const list = await restored.request('tools/list');
    expectValidWire(list, '2024-11-05', 'tools/list');
    const call = await restored.request('tools/call', { name: 'media' });
    expectValidWire(call, '2024-11-05', 'tools/call');
    expect((call['result'] as Json)['content']).toStrictEqual([{ type: 'text', text: "[audio content (audio/wav) not shown: this client's protocol revision has no audio]" }]);
    // The level set on the first instance holds: the info line is not sent, the error line is.
    expect(restored.sent.filter((m) => m['method'] === 'notifications/message').map((m) => (m['params'] as Json)['level'])).toStrictEqual(['error']);
    // The subscription made on the first instance is delivered here.
    await second.notifyResourceUpdated('mem://note');
    await second.notifyResourceUpdated('mem://other');
    await settle();
    expect(restored.sent.filter((m) => m['method'] === 'notifications/resources/updated')).toStrictEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'mem://note' } },
    ]);
    // A legacy session does not accept 2026-07-28 requests, restored or not.
    expect(await restored.request('server/discover')).toMatchObject({ error: { code: -32601 } });
  });

  it('refuses a record that is not one, naming the field', () => {
    const server = instance(new MemoryNotificationBus());
    const good: SessionRecord = { v: 1, protocolVersion: '2025-06-18', clientCapabilities: {}, serverCapabilities: {}, subscriptions: [] };
    expect(() => server.restoreConnection({ ...good, v: 2 } as unknown as SessionRecord)).toThrow('Invalid session record: "v" must be 1');
    expect(() => server.restoreConnection({ ...good, protocolVersion: '2026-07-28' })).toThrow('"protocolVersion" must be a revision negotiated by initialize');
    expect(() => server.restoreConnection({ ...good, subscriptions: [1] } as unknown as SessionRecord)).toThrow('"subscriptions" must be an array of URI strings');
    expect(() => server.restoreConnection({ ...good, logLevel: 'loud' } as unknown as SessionRecord)).toThrow('"logLevel" must be a logging level');
    expect(() => server.openConnection({ stateless: true, record: good })).toThrow('A stateless connection keeps no session');
    expect(server.restoreConnection(good).record).toStrictEqual(good);
  });
});

describe('onRecordChange', () => {
  it('is called after each change, in order, and awaited before the request is answered', async () => {
    const seen: SessionRecord[] = [];
    const hold = gate();
    let holding = false;
    const s = open(instance(new MemoryNotificationBus()), {
      onRecordChange: async (record) => {
        seen.push(record);
        if (holding) await hold.promise;
      },
    });
    await s.request('initialize', INIT);
    expect(seen.map((r) => r.protocolVersion)).toStrictEqual(['2024-11-05']);
    holding = true;
    let answered = false;
    const subscribing = s.request('resources/subscribe', { uri: 'mem://note' }).then((response) => ((answered = true), response));
    await settle();
    expect(seen.at(-1)?.subscriptions).toStrictEqual(['mem://note']);
    expect(answered).toBe(false);
    hold.open();
    expect(await subscribing).toStrictEqual({ jsonrpc: '2.0', id: 2, result: {} });
    holding = false;
    // Concurrent changes (one batch) are reported one at a time, each building on the last.
    await s.connection.handleMessage([
      { jsonrpc: '2.0', id: 10, method: 'resources/subscribe', params: { uri: 'mem://other' } },
      { jsonrpc: '2.0', id: 11, method: 'resources/unsubscribe', params: { uri: 'mem://note' } },
      { jsonrpc: '2.0', id: 12, method: 'logging/setLevel', params: { level: 'error' } },
    ]);
    expect(seen.slice(2).map((r) => [r.subscriptions, r.logLevel])).toStrictEqual([
      [['mem://note', 'mem://other'], undefined],
      [['mem://other'], undefined],
      [['mem://other'], 'error'],
    ]);
    expect(s.connection.record).toBe(seen.at(-1));
  });

  it('failing, fails the request with -32603 and leaves the record as it was', async () => {
    const logged: unknown[][] = [];
    const server = instance(new MemoryNotificationBus(), logged);
    let fail = false;
    const s = open(server, {
      onRecordChange: () => {
        if (fail) throw new Error('store down: redis://secret-host');
      },
    });
    await s.request('initialize', INIT);
    const before = s.connection.record;
    fail = true;
    const level = await s.request('logging/setLevel', { level: 'emergency' });
    expect(level).toStrictEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32603, message: 'Internal error: the session could not be saved after logging/setLevel, so nothing changed; retry the request' },
    });
    const subscribe = await s.request('resources/subscribe', { uri: 'mem://note' });
    expect(subscribe).toMatchObject({ error: { code: -32603, message: 'Internal error: the session could not be saved after resources/subscribe, so nothing changed; retry the request' } });
    expect(s.connection.record).toStrictEqual(before);
    // The cause is logged on the server, not sent to the client.
    expect(logged.map(([message]) => message)).toStrictEqual(['mcpkit: saving the session record after logging/setLevel failed', 'mcpkit: saving the session record after resources/subscribe failed']);
    // Nothing changed: every level is still sent, and no update for the refused subscription.
    await s.request('tools/call', { name: 'media' });
    await server.notifyResourceUpdated('mem://note');
    await settle();
    expect(s.sent.filter((m) => m['method'] === 'notifications/message')).toHaveLength(2);
    expect(s.sent.filter((m) => m['method'] === 'notifications/resources/updated')).toHaveLength(0);
    // A failed initialize leaves the connection without a session.
    const fresh = open(server, { onRecordChange: () => Promise.reject(new Error('no')) });
    expect(await fresh.request('initialize', INIT)).toMatchObject({ error: { code: -32603 } });
    expect(fresh.connection.record).toBeUndefined();
  });
});
