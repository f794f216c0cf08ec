/**
 * `subscriptions/listen` (2026-07-28) over HTTP: acknowledgement first, only
 * the opted-in notification types, the subscription id on every message,
 * fan-out to every open stream, and clean-up when the client goes away. Also:
 * closing any modern SSE response aborts the handler's signal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer, MemoryNotificationBus } from '../../../src/index.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { expectValidWire } from '../../support/wire-schema.js';
import { META_LOG_LEVEL, META_SUBSCRIPTION_ID, MODERN, modernRequest, openStream, until } from '../../fixtures/modern-http.mjs';

type Json = Record<string, unknown>;

const bus = new MemoryNotificationBus();
const server = new McpServer({ name: 'listen', version: '1.0.0', bus });
const input = { type: 'object', properties: {} } as const;
server.tool('stable', { input }, () => 'stable');
const changing = server.tool('changing', { input, description: 'v1' }, () => 'changing');
const prompt = server.prompt('hello', {}, () => 'hello');
server.resource('memo://watched', { name: 'watched' }, () => 'watched');
let aborted: { resolve: (reason: string) => void; promise: Promise<string> };
let started: { resolve: () => void; promise: Promise<void> };
function resetSignals(): void {
  let resolveAbort!: (reason: string) => void;
  let resolveStart!: () => void;
  aborted = { resolve: (r) => resolveAbort(r), promise: new Promise((r) => (resolveAbort = r)) };
  started = { resolve: () => resolveStart(), promise: new Promise((r) => (resolveStart = r)) };
}
resetSignals();
server.tool('long', { input }, async (_args, ctx) => {
  await ctx.log('info', 'working');
  started.resolve();
  await new Promise<void>((resolve) => {
    ctx.signal.addEventListener('abort', () => {
      aborted.resolve(String((ctx.signal.reason as Error | undefined)?.message));
      resolve();
    }, { once: true });
  });
  return 'never seen';
});

let listener: McpHttpListener;
let url: string;
let baseline: number;
beforeAll(async () => {
  listener = await listen(server, { port: 0, keepAliveMs: 0 });
  url = listener.url;
  // The shared modern connection subscribes once; listen streams add to that.
  await modernRequest(url, 0, 'server/discover');
  baseline = bus.listenerCount;
});
afterAll(async () => {
  await listener.close({ graceMs: 0 });
});

type Stream = Awaited<ReturnType<typeof openStream>>;
async function next(stream: Stream): Promise<Json> {
  const message = (await stream.next()) as Json;
  expectValidWire(message, MODERN);
  return message;
}
const subscriptionIdOf = (message: Json): unknown => ((message['params'] as Json)['_meta'] as Json)[META_SUBSCRIPTION_ID];

describe('subscriptions/listen', () => {
  it('acknowledges first, sends only opted-in types tagged with the subscription id, and reaches every stream', async () => {
    const tools = await openStream(url, 'listen-tools', 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    expect(tools.status).toBe(200);
    expect(tools.contentType).toMatch(/^text\/event-stream/);
    const ack = await next(tools);
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { [META_SUBSCRIPTION_ID]: 'listen-tools' } },
    });

    const mixed = await openStream(url, 7, 'subscriptions/listen', {
      notifications: { promptsListChanged: true, toolsListChanged: true, resourceSubscriptions: ['memo://watched'] },
    });
    expect(await next(mixed)).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { promptsListChanged: true, toolsListChanged: true, resourceSubscriptions: ['memo://watched'] }, _meta: { [META_SUBSCRIPTION_ID]: 7 } },
    });

    const promptsOnly = await openStream(url, 'listen-prompts', 'subscriptions/listen', { notifications: { promptsListChanged: true } });
    await next(promptsOnly);
    await until(() => bus.listenerCount === baseline + 3);

    changing.update({ description: 'v2' });
    expect(await next(tools)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [META_SUBSCRIPTION_ID]: 'listen-tools' } } });
    expect(await next(mixed)).toMatchObject({ method: 'notifications/tools/list_changed', params: { _meta: { [META_SUBSCRIPTION_ID]: 7 } } });

    prompt.update({ description: 'changed' });
    expect(await next(mixed)).toMatchObject({ method: 'notifications/prompts/list_changed' });
    // The prompts-only stream saw no tools change: its first notification is the prompt one.
    const first = await next(promptsOnly);
    expect(first).toMatchObject({ method: 'notifications/prompts/list_changed' });
    expect(subscriptionIdOf(first)).toBe('listen-prompts');

    await server.notifyResourceUpdated('memo://other');
    await server.notifyResourceUpdated('memo://watched');
    expect(await next(mixed)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'memo://watched', _meta: { [META_SUBSCRIPTION_ID]: 7 } },
    });

    changing.remove();
    // The tools-only stream saw neither the prompt change nor the resource update.
    expect(await next(tools)).toMatchObject({ method: 'notifications/tools/list_changed', params: { _meta: { [META_SUBSCRIPTION_ID]: 'listen-tools' } } });
    expect(await next(mixed)).toMatchObject({ method: 'notifications/tools/list_changed' });

    // keepAliveMs: 0 disables the keep-alive comments.
    expect(tools.state.comments).toBe(0);

    tools.close();
    mixed.close();
    promptsOnly.close();
    await until(() => bus.listenerCount === baseline);
    expect(bus.listenerCount).toBe(baseline);
  });

  it('an idle listen stream gets SSE keep-alive comments (engine keepAliveMs), and they end with it', async () => {
    const chatty = await listen(server, { port: 0, keepAliveMs: 10 });
    try {
      const stream = await openStream(chatty.url, 'idle', 'subscriptions/listen', { notifications: { toolsListChanged: true } });
      await next(stream);
      await until(() => stream.state.comments >= 2);
      for (const line of stream.lines.filter((l) => l.startsWith(':'))) expect(line).toBe(': keep-alive');
      stream.close();
      await until(() => bus.listenerCount === baseline + 1);
    } finally {
      await chatty.close({ graceMs: 0 });
    }
  });

  it('a filter the server cannot honour is narrowed in the acknowledgement', async () => {
    const stream = await openStream(url, 'narrow', 'subscriptions/listen', { notifications: { toolsListChanged: true, resourcesListChanged: false, unknownKind: true } });
    expect(await next(stream)).toMatchObject({ params: { notifications: { toolsListChanged: true } } });
    stream.close();
    await until(() => bus.listenerCount === baseline);
  });

  it('without a notifications filter it is -32602 (HTTP 400)', async () => {
    const reply = await modernRequest(url, 'bad', 'subscriptions/listen', {});
    expect(reply.status).toBe(400);
    expect(reply.messages[0]).toMatchObject({ id: 'bad', error: { code: -32602 } });
  });

  it('is a 2026-07-28 method only: a legacy session gets -32601', async () => {
    const init = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'l', version: '1' } } }),
    });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const reply = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } }),
    });
    expect(await reply.json()).toMatchObject({ id: 2, error: { code: -32601 } });
  });
});

describe('client disconnect', () => {
  it('closing a modern request SSE response aborts the handler signal', async () => {
    resetSignals();
    const stream = await openStream(url, 'long-1', 'tools/call', { name: 'long', arguments: {} }, { metaExtra: { [META_LOG_LEVEL]: 'info' } });
    expect(await next(stream)).toMatchObject({ method: 'notifications/message', params: { data: 'working' } });
    await started.promise;
    stream.close();
    expect(await aborted.promise).toBe('client disconnected');
  });
});

describe('subscriptions/listen with responseMode: json', () => {
  it('still streams: a listen answer is a stream whatever the mode, while other requests answer JSON', async () => {
    const jsonServer = new McpServer({ name: 'listen-json', version: '1.0.0' });
    const tool = jsonServer.tool('t', { input }, () => 't');
    const jsonListener = await listen(jsonServer, { port: 0, keepAliveMs: 0, responseMode: 'json' });
    try {
      const stream = await openStream(jsonListener.url, 'l1', 'subscriptions/listen', { notifications: { toolsListChanged: true } });
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      expect(await next(stream)).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
      tool.update({ description: 'changed' });
      expect(await next(stream)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [META_SUBSCRIPTION_ID]: 'l1' } } });
      stream.close();
      const call = await openStream(jsonListener.url, 2, 'tools/call', { name: 't', arguments: {} });
      expect(call.contentType).toMatch(/^application\/json/);
    } finally {
      await jsonListener.close({ graceMs: 0 });
    }
  });
});
