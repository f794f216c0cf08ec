/**
 * 2026-07-28 over stdio (StdioTransport over a PassThrough pair): server/discover
 * as the era probe, `_meta` on every request deciding that request alone, and
 * notifications/cancelled ending a request without any response. Every line
 * written is one JSON message, valid for 2026-07-28.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpServer, StdioTransport } from '../../../src/index.js';
import { LineCollector, streamPair } from '../../support/wire.js';
import { meta, META_LOG_LEVEL, META_SERVER_INFO, MODERN } from '../../fixtures/modern-http.mjs';

type Json = Record<string, unknown>;

let server: McpServer;
let input: ReturnType<typeof streamPair>['input'];
let out: LineCollector;
const methods = new Map<unknown, string>();
let cancelled: Promise<string>;

beforeEach(async () => {
  server = new McpServer({ name: 'stdio-modern', version: '2.0.0' });
  const empty = { type: 'object', properties: {} } as const;
  server.tool('echo', { input: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => `echo: ${String(text)}`);
  server.tool('chatty', { input: empty }, async (_args, ctx) => {
    await ctx.log('warning', 'careful');
    return 'done';
  });
  server.tool('ask', { input: empty }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { key: 'user_name' });
    return `Hi ${String(answer.content?.['name'])}`;
  });
  let onCancel!: (reason: string) => void;
  cancelled = new Promise((resolve) => (onCancel = resolve));
  server.tool('block', { input: empty }, async (_args, ctx) => {
    // The cancellation may land before the handler starts: check, then listen.
    if (!ctx.signal.aborted) await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    onCancel((ctx.signal.reason as Error).message);
    return 'should not be sent';
  });
  const pair = streamPair();
  input = pair.input;
  methods.clear();
  out = new LineCollector(pair.output, () => MODERN, (id) => methods.get(id));
  await server.connect(new StdioTransport({ input: pair.input, output: pair.output }));
});
afterEach(async () => {
  await server.stop();
});

function write(message: Json): void {
  if ('id' in message && typeof message['method'] === 'string') methods.set(message['id'], message['method']);
  input.write(`${JSON.stringify(message)}\n`);
}

async function request(id: number | string, method: string, params: Json = {}, metaOverride: Json = meta()): Promise<Json> {
  const before = out.messages.length;
  write({ jsonrpc: '2.0', id, method, params: { ...params, _meta: metaOverride } });
  for (let n = before + 1; ; n++) {
    await out.waitFor(n);
    const message = out.messages[n - 1] as Json;
    if (message['id'] === id && !('method' in message)) return message;
  }
}

describe('stdio, 2026-07-28', () => {
  it('server/discover probes the era without initialize', async () => {
    const response = await request(1, 'server/discover');
    expect(response['result']).toMatchObject({
      supportedVersions: [MODERN],
      capabilities: { tools: { listChanged: true } },
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { [META_SERVER_INFO]: { name: 'stdio-modern', version: '2.0.0' } },
    });
    // One message per line, nothing else on stdout.
    expect(out.lines).toHaveLength(1);
    expect(out.partial).toBe('');
  });

  it('every request carries its own _meta: capabilities and log level apply to that request only', async () => {
    expect((await request(1, 'tools/call', { name: 'echo', arguments: { text: 'a' } }))['result']).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'echo: a' }] });
    expect(await request(2, 'tools/call', { name: 'ask', arguments: {} }, meta({}))).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } } });
    expect((await request(3, 'tools/call', { name: 'ask', arguments: {} }, meta({ elicitation: {} })))['result']).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
    });
    const noLogs = out.messages.length;
    await request(4, 'tools/call', { name: 'chatty', arguments: {} });
    expect(out.messages.length).toBe(noLogs + 1);
    await request(5, 'tools/call', { name: 'chatty', arguments: {} }, { ...meta(), [META_LOG_LEVEL]: 'warning' });
    expect(out.messages.slice(-2)).toMatchObject([{ method: 'notifications/message', params: { level: 'warning', data: 'careful' } }, { id: 5 }]);
  });

  it('a request without _meta after modern ones is not modern: removed methods stay removed only for modern requests', async () => {
    expect(await request(1, 'ping', {}, meta())).toMatchObject({ error: { code: -32601 } });
    expect(await request(2, 'initialize', { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'x', version: '1' } })).toMatchObject({ error: { code: -32601 } });
  });

  it('an unsupported version is -32022 with supported and requested', async () => {
    expect(await request(1, 'tools/list', {}, { ...meta(), 'io.modelcontextprotocol/protocolVersion': '2030-01-01' })).toMatchObject({
      error: { code: -32022, data: { supported: [MODERN], requested: '2030-01-01' } },
    });
  });

  it('a batch of modern requests is refused, each request by its id (-32600)', async () => {
    input.write(`${JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta() } }])}\n`);
    await out.waitFor(1);
    expect(out.messages).toHaveLength(1);
    expect(out.messages[0]).toMatchObject([{ id: 1, error: { code: -32600 } }, { id: 2, error: { code: -32600 } }]);
  });

  it('notifications/cancelled aborts the handler and no response is written', async () => {
    write({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'block', arguments: {}, _meta: meta() } });
    write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'user pressed stop', _meta: meta() } });
    expect(await cancelled).toBe('Request cancelled: user pressed stop');
    // The next thing written is the answer to a later request, never one to 'slow'.
    const after = await request('later', 'tools/list');
    expect(after['id']).toBe('later');
    expect(out.messages.filter((m) => (m as Json)['id'] === 'slow')).toEqual([]);
  });
});
