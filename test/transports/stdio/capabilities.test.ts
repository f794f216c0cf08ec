/**
 * Every capability once more, over the stdio transport (newline-delimited JSON
 * on a stream pair, in process): what the test client checks in memory also
 * holds on the bytes stdio writes. Every line is schema-validated as it arrives.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StdioTransport } from '../../../src/transports/stdio.js';
import { McpServer } from '../../../src/server/server.js';
import { LineCollector, streamPair } from '../../support/wire.js';
import { LEGACY, tick } from '../../protocol/support.js';

type Json = Record<string, unknown>;

function makeServer(): McpServer {
  const s = new McpServer({ name: 'stdio-caps', version: '1.0.0', results: { pageSize: 2 }, logger: { error: () => undefined } });
  s.tool('add', { input: z.object({ a: z.number(), b: z.number() }), output: z.object({ sum: z.number() }) }, (args) => ({ sum: args.a + args.b }));
  s.tool('work', {}, async (_args, ctx) => {
    await ctx.log('debug', 'starting');
    await ctx.log('error', 'something odd');
    await ctx.progress(1, 2);
    await ctx.progress(2, 2);
    return 'worked';
  });
  s.tool('wait', {}, (_args, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))));
  s.tool('ask', {}, async (_args, ctx) => {
    const form = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    const sampled = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    const roots = await ctx.listRoots();
    return `${String(form.content?.['name'])} ${JSON.stringify(sampled.content)} ${roots.roots.length}`;
  });
  s.resource('mem://logo', { mimeType: 'image/png' }, () => new Uint8Array([1, 2, 3]));
  s.resourceTemplate('mem://items/{id}', { complete: { id: (v) => ['1', '10', '2'].filter((x) => x.startsWith(v)) } }, (_uri, vars) => `item ${String(vars['id'])}`);
  s.prompt('greet', { arguments: [{ name: 'name', required: true }] }, (args) => `Hello, ${args['name']}!`);
  return s;
}

let server: McpServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** A line client on the other end of the streams; it answers elicitation, sampling and roots. */
async function start(): Promise<{ request: (method: string, params?: Json) => Promise<Json>; write: (message: Json) => void; lines: LineCollector; server: McpServer }> {
  server = makeServer();
  const { input, output } = streamPair();
  const methods = new Map<unknown, string>();
  const lines = new LineCollector(output, () => LEGACY, (id) => methods.get(id));
  const write = (message: Json): void => {
    if ('id' in message && typeof message['method'] === 'string') methods.set(message['id'], message['method']);
    input.write(`${JSON.stringify(message)}\n`);
  };
  const answers: Record<string, Json> = {
    'elicitation/create': { action: 'accept', content: { name: 'Ada' } },
    'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm' },
    'roots/list': { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] },
  };
  const answered = new Set<unknown>();
  output.on('data', () => {
    for (const m of lines.messages as Json[]) {
      if (typeof m['method'] === 'string' && 'id' in m && !answered.has(m['id'])) {
        answered.add(m['id']);
        write({ jsonrpc: '2.0', id: m['id'], result: answers[m['method']] ?? {} });
      }
    }
  });
  await server.connect(new StdioTransport({ input, output }));
  let nextId = 1;
  const request = async (method: string, params: Json = {}): Promise<Json> => {
    const id = nextId++;
    write({ jsonrpc: '2.0', id, method, params });
    for (;;) {
      const found = (lines.messages as Json[]).find((m) => m['id'] === id && !('method' in m));
      if (found) return found;
      await lines.waitFor(lines.messages.length + 1);
    }
  };
  return { request, write, lines, server };
}

const notes = (lines: LineCollector, method: string): Json[] => (lines.messages as Json[]).filter((m) => m['method'] === method && !('id' in m));

describe('every capability over stdio', () => {
  it('initialize, tools, resources, prompts, completions', async () => {
    const { request } = await start();
    const init = await request('initialize', { protocolVersion: LEGACY, capabilities: { elicitation: {}, sampling: {}, roots: {} }, clientInfo: { name: 'line', version: '1' } });
    expect((init['result'] as Json)['capabilities']).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
    });
    const page1 = (await request('tools/list'))['result'] as Json;
    expect((page1['tools'] as Json[]).map((t) => t['name'])).toEqual(['add', 'work']);
    const page2 = (await request('tools/list', { cursor: page1['nextCursor'] as string }))['result'] as Json;
    expect((page2['tools'] as Json[]).map((t) => t['name'])).toEqual(['wait', 'ask']);
    expect(await request('tools/call', { name: 'add', arguments: { a: 1, b: 2 } })).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: { content: [{ type: 'text', text: '{"sum":3}' }], structuredContent: { sum: 3 } },
    });
    expect(((await request('tools/call', { name: 'add', arguments: { a: 1 } }))['result'] as Json)['isError']).toBe(true);
    expect((await request('resources/read', { uri: 'mem://logo' }))['result']).toEqual({ contents: [{ uri: 'mem://logo', mimeType: 'image/png', blob: 'AQID' }] });
    expect((await request('resources/read', { uri: 'mem://items/7' }))['result']).toEqual({ contents: [{ uri: 'mem://items/7', text: 'item 7' }] });
    expect((await request('prompts/get', { name: 'greet', arguments: { name: 'Ada' } }))['result']).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }],
    });
    expect((await request('prompts/get', { name: 'greet' }))['error']).toMatchObject({ code: -32602 });
    expect((await request('completion/complete', { ref: { type: 'ref/resource', uri: 'mem://items/{id}' }, argument: { name: 'id', value: '1' } }))['result']).toEqual({
      completion: { values: ['1', '10'], total: 2, hasMore: false },
    });
  });

  it('logging, progress, cancellation, subscriptions, list_changed and client requests', async () => {
    const { request, write, lines, server: s } = await start();
    await request('initialize', { protocolVersion: LEGACY, capabilities: { elicitation: {}, sampling: {}, roots: {} }, clientInfo: { name: 'line', version: '1' } });
    write({ jsonrpc: '2.0', method: 'notifications/initialized' });

    await request('logging/setLevel', { level: 'warning' });
    await request('tools/call', { name: 'work', arguments: {}, _meta: { progressToken: 'w' } });
    expect(notes(lines, 'notifications/message').map((n) => n['params'])).toEqual([{ level: 'error', data: 'something odd' }]);
    expect(notes(lines, 'notifications/progress').map((n) => n['params'])).toEqual([
      { progressToken: 'w', progress: 1, total: 2 },
      { progressToken: 'w', progress: 2, total: 2 },
    ]);

    write({ jsonrpc: '2.0', id: 'stuck', method: 'tools/call', params: { name: 'wait', arguments: {} } });
    await tick();
    write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'stuck', reason: 'bored' } });
    expect(await request('ping')).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    await tick();
    expect((lines.messages as Json[]).filter((m) => m['id'] === 'stuck')).toEqual([]);

    await request('resources/subscribe', { uri: 'mem://logo' });
    await s.notifyResourceUpdated('mem://logo');
    s.tool('extra1', {}, () => 'x');
    s.tool('extra2', {}, () => 'y');
    expect(((await request('tools/call', { name: 'ask', arguments: {} }))['result'] as Json)['content']).toEqual([
      { type: 'text', text: 'Ada {"type":"text","text":"yo"} 2' },
    ]);
    await tick();
    expect(notes(lines, 'notifications/resources/updated')).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'mem://logo' } }]);
    expect(notes(lines, 'notifications/tools/list_changed')).toHaveLength(1);
    expect((lines.messages as Json[]).filter((m) => 'id' in m && typeof m['method'] === 'string').map((m) => m['method'])).toEqual([
      'elicitation/create',
      'sampling/createMessage',
      'roots/list',
    ]);
    expect(lines.partial).toBe('');
  });
});
