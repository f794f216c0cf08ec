/**
 * The legacy lifecycle (initialize → notifications/initialized → requests),
 * ping, requests served without a handshake, and the listing/reading methods
 * of a legacy connection, each response validated for the negotiated revision.
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import { harness, modernMeta, MODERN_REVISION, settle } from '../../support/wire.js';
import { FULL_CAPABILITIES, makeServer, SERVER_INFO } from '../../support/servers.js';

const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

describe('initialize', () => {
  it.each(LEGACY)('answers %s as requested, with serverInfo and capabilities', async (version) => {
    const h = harness(makeServer().server);
    const response = await h.initialize(version);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: version, capabilities: FULL_CAPABILITIES, serverInfo: SERVER_INFO },
    });
    expect(h.revision()).toBe(version);
    // The connection now speaks that revision: a call is validated against its schema.
    expect(await h.request('tools/call', { name: 'echo', arguments: { text: version } })).toStrictEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: version }] },
    });
  });

  it.each(['1999-01-01', '2024-10-07', '2026-07-28', 'latest', 20241105, undefined])(
    'answers an unknown or unsupported version (%s) with 2025-11-25',
    async (requested) => {
      const h = harness(makeServer().server);
      const params: Record<string, unknown> = { capabilities: {}, clientInfo: { name: 'c', version: '1' } };
      if (requested !== undefined) params['protocolVersion'] = requested;
      const response = await h.request('initialize', params);
      expect((response['result'] as Record<string, unknown>)['protocolVersion']).toBe('2025-11-25');
    },
  );

  it('reads server identity and instructions from the one metadata source', async () => {
    const server = new McpServer({ name: 'meta', version: '9.9.9', title: 'Meta Server', instructions: 'Use the tools wisely.' });
    server.tool('t', {}, () => 'ok');
    const h = harness(server);
    const response = await h.initialize('2025-06-18');
    expect(response['result']).toStrictEqual({
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: true }, logging: {} },
      serverInfo: { name: 'meta', version: '9.9.9', title: 'Meta Server' },
      instructions: 'Use the tools wisely.',
    });
    const metadata = server.getMetadata();
    expect({ name: metadata.name, version: metadata.version }).toStrictEqual({ name: 'meta', version: '9.9.9' });
    expect(metadata.capabilities).toStrictEqual((response['result'] as Record<string, unknown>)['capabilities']);
  });

  it('declares only the capabilities something provides', async () => {
    const h = harness(new McpServer({ name: 'bare', version: '0' }));
    expect((await h.initialize())['result']).toStrictEqual({
      protocolVersion: '2025-11-25',
      capabilities: { logging: {} },
      serverInfo: { name: 'bare', version: '0' },
    });
  });

  it('accepts notifications/initialized without a reply', async () => {
    const h = harness(makeServer().server);
    await h.initialize();
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(h.sent).toEqual([]);
  });
});

describe('ping', () => {
  it('answers exactly {} before and after initialize', async () => {
    const h = harness(makeServer().server);
    expect(await h.request('ping')).toStrictEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await h.initialize('2024-11-05');
    const response = await h.request('ping', {});
    expect(JSON.stringify(response)).toBe('{"jsonrpc":"2.0","id":3,"result":{}}');
  });

  it('answers a fresh {} each time (a mutated result never leaks)', async () => {
    const h = harness(makeServer().server);
    const first = await h.request('ping');
    (first['result'] as Record<string, unknown>)['tainted'] = true;
    expect((await h.request('ping'))['result']).toStrictEqual({});
  });
});

describe('requests without a prior initialize', () => {
  it('serves the seed example first thing on a fresh connection', async () => {
    const h = harness(makeServer().server);
    const response = await h.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    expect(JSON.stringify(response)).toBe('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}');
  });

  it('lists tools, resources, templates and prompts in registration order', async () => {
    const h = harness(makeServer().server);
    const tools = ((await h.request('tools/list'))['result'] as { tools: { name: string }[] }).tools;
    expect(tools.map((t) => t.name)).toEqual(['echo', 'boom', 'refuse', 'protocol', 'record']);
    expect(tools[0]).toStrictEqual({
      name: 'echo',
      description: 'Echoes the input back',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    expect((await h.request('resources/list'))['result']).toStrictEqual({
      resources: [
        { uri: 'mem://greeting', name: 'greeting', mimeType: 'text/plain' },
        { uri: 'mem://boom', name: 'boom' },
        { uri: 'mem://protocol', name: 'protocol' },
      ],
    });
    expect((await h.request('resources/templates/list'))['result']).toStrictEqual({
      resourceTemplates: [{ uriTemplate: 'mem://items/{id}', name: 'item', mimeType: 'text/plain' }],
    });
    expect((await h.request('prompts/list'))['result']).toStrictEqual({
      prompts: [
        { name: 'greet', description: 'Greets someone', arguments: [{ name: 'name', required: true }] },
        { name: 'boom', description: 'Throws a plain Error' },
        { name: 'protocol', description: 'Throws a JsonRpcProtocolError' },
      ],
    });
  });

  it('reads a resource and a template, and gets a prompt', async () => {
    const h = harness(makeServer().server);
    expect((await h.request('resources/read', { uri: 'mem://greeting' }))['result']).toStrictEqual({
      contents: [{ uri: 'mem://greeting', mimeType: 'text/plain', text: 'hello' }],
    });
    expect((await h.request('resources/read', { uri: 'mem://items/42' }))['result']).toStrictEqual({
      contents: [{ uri: 'mem://items/42', mimeType: 'text/plain', text: 'item 42' }],
    });
    expect((await h.request('prompts/get', { name: 'greet', arguments: { name: 'Ada' } }))['result']).toStrictEqual({
      description: 'Greets someone',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }],
    });
  });
});

describe('resource not found', () => {
  it.each(LEGACY)('is -32002 with data.uri on %s', async (version) => {
    const h = harness(makeServer().server);
    await h.initialize(version);
    expect(await h.request('resources/read', { uri: 'mem://nope' })).toStrictEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32002, message: 'Resource not found: mem://nope', data: { uri: 'mem://nope' } },
    });
  });

  it('is -32002 on a connection that never initialized', async () => {
    const h = harness(makeServer().server);
    expect((await h.request('resources/read', { uri: 'file:///missing' }))['error']).toStrictEqual({
      code: -32002,
      message: 'Resource not found: file:///missing',
      data: { uri: 'file:///missing' },
    });
  });

  it(`is -32602 with data.uri on ${MODERN_REVISION}`, async () => {
    const h = harness(makeServer().server);
    expect((await h.request('resources/read', { uri: 'mem://nope', _meta: modernMeta() }))['error']).toStrictEqual({
      code: -32602,
      message: 'Resource not found: mem://nope',
      data: { uri: 'mem://nope' },
    });
  });
});

describe('the modern path on the same connection type', () => {
  it('answers server/discover and a tools/call that carry the 2026-07-28 _meta', async () => {
    const h = harness(makeServer().server);
    const discover = await h.request('server/discover', { _meta: modernMeta() });
    const result = discover['result'] as Record<string, unknown>;
    expect(result['supportedVersions']).toEqual([MODERN_REVISION]);
    expect(result['capabilities']).toStrictEqual(FULL_CAPABILITIES);
    expect(result['resultType']).toBe('complete');
    const call = await h.request('tools/call', { name: 'echo', arguments: { text: 'modern' }, _meta: modernMeta() });
    expect((call['result'] as Record<string, unknown>)['content']).toStrictEqual([{ type: 'text', text: 'modern' }]);
    expect((call['result'] as Record<string, unknown>)['resultType']).toBe('complete');
    // Stateless: nothing was negotiated for the connection.
    expect(h.connection.record).toBeUndefined();
  });
});

describe('cancellation', () => {
  it('a request the client cancelled gets no response at all', async () => {
    const s = makeServer();
    const h = harness(s.server);
    const pending = h.send({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'record', arguments: { label: 'cancel-me', wait: true } } });
    await settle();
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user aborted' } })).toBeUndefined();
    s.gate('cancel-me').open();
    expect(await pending).toBeUndefined();
    expect(await h.request('ping')).toStrictEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});
