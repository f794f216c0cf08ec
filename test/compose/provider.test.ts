/**
 * server.provide() with a provider that answers asynchronously (as a proxied
 * upstream does): merged and paged lists, lookups, reads, subscriptions,
 * change events, a failing list left out; every outgoing message validated.
 */
import { describe, expect, it, vi } from 'vitest';
import { McpServer, type McpProvider, type McpProviderChange, type RequestContext } from '../../src/index.js';
import { harness, modernMeta, settle } from '../support/wire.js';

type Json = Record<string, unknown>;
const resultOf = (response: Json): Json => response['result'] as Json;
const later = async <T>(value: T): Promise<T> => {
  await settle(1);
  return value;
};

function remote(): { provider: McpProvider<RequestContext>; emit(change: McpProviderChange): void; subscribed: string[] } {
  const listeners = new Set<(change: McpProviderChange) => void>();
  const subscribed: string[] = [];
  const tools = ['r1', 'r2', 'r3'].map((name) => ({ name, description: `remote ${name}`, inputSchema: { type: 'object' }, execute: async () => ({ content: [{ type: 'text' as const, text: `ran ${name}` }] }) }));
  const provider: McpProvider<RequestContext> = {
    label: 'remote',
    listTools: () => later(tools),
    findTool: (name) => later(tools.find((t) => t.name === name)),
    listResources: () => later([{ uri: 'up://a', name: 'a', read: () => later({ text: 'A' }) }]),
    subscribe: async (uri) => void subscribed.push(uri),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { provider, emit: (change) => listeners.forEach((l) => l(change)), subscribed };
}

describe('server.provide with an asynchronous provider', () => {
  it('merges and pages the lists (local first), calls and reads through it, in both eras', async () => {
    const server = new McpServer({ name: 'p', version: '1', pageSize: 2, logger: { error: vi.fn(), warn: vi.fn() } });
    server.tool('local', {}, () => 'local');
    server.provide(remote().provider);
    const h = harness(server);
    await h.initialize();
    const first = resultOf(await h.request('tools/list'));
    expect((first['tools'] as Json[]).map((t) => t['name'])).toEqual(['local', 'r1']);
    const second = resultOf(await h.request('tools/list', { cursor: first['nextCursor'] }));
    expect((second['tools'] as Json[]).map((t) => t['name'])).toEqual(['r2', 'r3']);
    expect(second['nextCursor']).toBeUndefined();
    expect(resultOf(await h.request('tools/call', { name: 'r2', arguments: {} }))['content']).toEqual([{ type: 'text', text: 'ran r2' }]);
    expect(resultOf(await h.request('resources/read', { uri: 'up://a' }))['contents']).toEqual([{ uri: 'up://a', text: 'A' }]);
    expect((resultOf(await harness(server).request('tools/call', { name: 'r3', arguments: {}, _meta: modernMeta() }))['content'] as Json[])[0]).toEqual({ type: 'text', text: 'ran r3' });
  });

  it('tells the provider of a subscription and relays its changes and updates', async () => {
    const server = new McpServer({ name: 'p', version: '1', logger: { error: vi.fn(), warn: vi.fn() } });
    const r = remote();
    server.provide(r.provider);
    const h = harness(server);
    await h.initialize();
    await h.request('resources/subscribe', { uri: 'up://a' });
    expect(r.subscribed).toEqual(['up://a']);
    expect((await h.request('resources/subscribe', { uri: 'up://nope' }))['error']).toMatchObject({ code: -32002 });
    r.emit({ type: 'resource_updated', uri: 'up://a' });
    r.emit({ type: 'list_changed', list: 'tools' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const methods = (h.sent as Json[]).map((m) => m['method']);
    expect(methods).toContain('notifications/resources/updated');
    expect(methods).toContain('notifications/tools/list_changed');
  });

  it('leaves out a provider whose list fails, logs it, and still lists the others', async () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const server = new McpServer({ name: 'p', version: '1', logger });
    server.tool('local', {}, () => 'local');
    server.provide({ label: 'broken', listTools: () => Promise.reject(new Error('upstream down')) });
    const h = harness(server);
    await h.initialize();
    expect((resultOf(await h.request('tools/list'))['tools'] as Json[]).map((t) => t['name'])).toEqual(['local']);
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('listing tools of broken failed'), expect.any(Error));
  });
});
