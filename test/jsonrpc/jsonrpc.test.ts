/**
 * JSON-RPC 2.0 rules, asserted on the exact wire output of
 * `McpServer.openConnection().handleMessage` (and `McpProtocolHandler`
 * directly). Every response is validated against the MCP schema.
 */
import { describe, expect, it } from 'vitest';
import { McpProtocolHandler } from '../../src/protocol/dispatch/protocol-handler.js';
import { McpServer } from '../../src/server/server.js';
import { harness, settle } from '../support/wire.js';
import { makeServer } from '../support/servers.js';

const INVALID = (id: string | number | null, reason: string): unknown => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32600, message: `Invalid Request: ${reason}` },
});
const BAD_JSONRPC = 'the "jsonrpc" member must be exactly "2.0"';
const BAD_ID = 'the "id" member must be a string, an integer or null';
const BAD_METHOD = 'the "method" member must be a string';
const BAD_PARAMS = 'the "params" member must be an object or an array';
const NOT_OBJECT = 'a JSON-RPC message must be a JSON object';

describe('requests and notifications', () => {
  it('answers a request with a string, integer, zero, negative or empty-string id with that same id', async () => {
    const h = harness(makeServer().server);
    for (const id of ['abc', 7, 0, -3, '', Number.MAX_SAFE_INTEGER, '1']) {
      expect(await h.send({ jsonrpc: '2.0', id, method: 'ping' })).toStrictEqual({ jsonrpc: '2.0', id, result: {} });
    }
  });

  it('treats an id of null as a request (a present id makes a request) and answers with id null', async () => {
    const h = harness(makeServer().server);
    expect(await h.send({ jsonrpc: '2.0', id: null, method: 'ping' })).toStrictEqual({ jsonrpc: '2.0', id: null, result: {} });
    expect(await h.send({ jsonrpc: '2.0', id: null, method: 'tools/call', params: { name: 'echo', arguments: { text: 'n' } } })).toStrictEqual({
      jsonrpc: '2.0',
      id: null,
      result: { content: [{ type: 'text', text: 'n' }] },
    });
  });

  it('never answers a notification: unknown method, a request-only method, or one whose handling throws', async () => {
    const { server, logger } = makeServer();
    server.onRootsListChanged(() => {
      throw new Error('listener failure');
    });
    const h = harness(server);
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/whatever' })).toBeUndefined();
    expect(await h.send({ jsonrpc: '2.0', method: 'ping' })).toBeUndefined();
    expect(await h.send({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'boom' } })).toBeUndefined();
    expect(await h.send({ jsonrpc: '2.0', method: 'nope', params: [1, 2] })).toBeUndefined();
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })).toBeUndefined();
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(h.sent).toEqual([]);
  });

  it('does not run a tool for a tools/call notification', async () => {
    const s = makeServer();
    const h = harness(s.server);
    expect(await h.send({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'record', arguments: { label: 'x' } } })).toBeUndefined();
    expect(s.started).toEqual([]);
  });

  it('consumes a stray client response silently', async () => {
    const h = harness(makeServer().server);
    expect(await h.send({ jsonrpc: '2.0', id: 99, result: {} })).toBeUndefined();
    expect(await h.send({ jsonrpc: '2.0', id: 'x', error: { code: -1, message: 'no' } })).toBeUndefined();
  });

  it('works the same through McpProtocolHandler built by hand', async () => {
    const { server } = makeServer();
    const handler = new McpProtocolHandler({
      tools: server.tools,
      resources: server.resources,
      prompts: server.prompts,
      getMetadata: () => server.getMetadata(),
    });
    expect(
      await handler.handleMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
    ).toStrictEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } });
    expect(await handler.handleMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
  });
});

describe('batches', () => {
  it('answers only the requests, in request order', async () => {
    const h = harness(makeServer().server);
    const response = await h.send([
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'two', method: 'ping' },
      { jsonrpc: '2.0', method: 'tools/call', params: { name: 'boom' } },
      { jsonrpc: '2.0', id: 3, method: 'nope' },
    ]);
    expect(response).toStrictEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'a' }] } },
      { jsonrpc: '2.0', id: 'two', result: {} },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found: nope' } },
    ]);
  });

  it('starts the members in order and answers in order even when an earlier one finishes last', async () => {
    const s = makeServer();
    const h = harness(s.server);
    const call = (id: number, label: string, wait: boolean): unknown => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'record', arguments: { label, wait } },
    });
    const pending = h.send([call(1, 'first', true), call(2, 'second', false), call(3, 'third', false)]);
    await settle();
    expect(s.started).toEqual(['first', 'second', 'third']);
    s.gate('first').open();
    const response = (await pending) as { id: number; result: unknown }[];
    expect(response.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(response.map((r) => r.result)).toStrictEqual(['first', 'second', 'third'].map((text) => ({ content: [{ type: 'text', text }] })));
  });

  it('answers an all-notification batch with nothing at all', async () => {
    const h = harness(makeServer().server);
    expect(
      await h.send([
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      ]),
    ).toBeUndefined();
  });

  it('answers a batch of client responses with nothing at all', async () => {
    const h = harness(makeServer().server);
    expect(await h.send([{ jsonrpc: '2.0', id: 1, result: {} }])).toBeUndefined();
  });

  it('answers an empty batch with ONE Invalid Request object, not an array', async () => {
    const h = harness(makeServer().server);
    const response = await h.send([]);
    expect(Array.isArray(response)).toBe(false);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch is not allowed' } });
  });

  it('answers each invalid member of a batch on its own (the JSON-RPC spec examples)', async () => {
    const h = harness(makeServer().server);
    expect(await h.send([1])).toStrictEqual([INVALID(null, NOT_OBJECT)]);
    expect(await h.send([1, 2, 3])).toStrictEqual([INVALID(null, NOT_OBJECT), INVALID(null, NOT_OBJECT), INVALID(null, NOT_OBJECT)]);
    expect(await h.send([[]])).toStrictEqual([INVALID(null, NOT_OBJECT)]);
    expect(
      await h.send([
        { jsonrpc: '2.0', method: 'sum', params: [1, 2, 4], id: '1' },
        { jsonrpc: '2.0', method: 'notify_hello', params: [7] },
        { foo: 'boo' },
        { jsonrpc: '2.0', method: 'foo.get', params: { name: 'myself' }, id: '5' },
        { jsonrpc: '2.0', method: 'ping', id: '9' },
      ]),
    ).toStrictEqual([
      { jsonrpc: '2.0', id: '1', error: { code: -32601, message: 'Method not found: sum' } },
      INVALID(null, BAD_JSONRPC),
      { jsonrpc: '2.0', id: '5', error: { code: -32601, message: 'Method not found: foo.get' } },
      { jsonrpc: '2.0', id: '9', result: {} },
    ]);
  });

  it('refuses a batch larger than maxBatchSize with one Invalid Request object', async () => {
    const h = harness(makeServer({ limits: { maxBatchSize: 2 } }).server);
    const ping = (id: number): unknown => ({ jsonrpc: '2.0', id, method: 'ping' });
    expect(await h.send([ping(1), ping(2)])).toHaveLength(2);
    expect(await h.send([ping(1), ping(2), ping(3)])).toStrictEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a batch may hold at most 2 messages (got 3)' },
    });
  });
});

describe('-32600 Invalid Request', () => {
  const server = new McpServer({ name: 's', version: '1' });

  it.each([
    ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 1, method: 'ping' }, INVALID(1, BAD_JSONRPC)],
    ['jsonrpc missing', { id: 1, method: 'ping' }, INVALID(1, BAD_JSONRPC)],
    ['jsonrpc as a number', { jsonrpc: 2.0, id: 'a', method: 'ping' }, INVALID('a', BAD_JSONRPC)],
    ['method as a number', { jsonrpc: '2.0', id: 1, method: 5 }, INVALID(1, BAD_METHOD)],
    ['method null', { jsonrpc: '2.0', id: 1, method: null }, INVALID(1, BAD_METHOD)],
    ['method missing', { jsonrpc: '2.0', id: 1 }, INVALID(1, 'the "method" member is missing')],
    ['method as a number in a notification', { jsonrpc: '2.0', method: 1, params: 'bar' }, INVALID(null, BAD_METHOD)],
    ['id as an object', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, INVALID(null, BAD_ID)],
    ['id as an array', { jsonrpc: '2.0', id: [1], method: 'ping' }, INVALID(null, BAD_ID)],
    ['id true', { jsonrpc: '2.0', id: true, method: 'ping' }, INVALID(null, BAD_ID)],
    ['id false', { jsonrpc: '2.0', id: false, method: 'ping' }, INVALID(null, BAD_ID)],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, INVALID(null, BAD_ID)],
    ['an unsafe integer id', { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' }, INVALID(null, BAD_ID)],
    ['params as a string', { jsonrpc: '2.0', id: 1, method: 'ping', params: 'x' }, INVALID(1, BAD_PARAMS)],
    ['params as a number', { jsonrpc: '2.0', id: 2, method: 'ping', params: 3 }, INVALID(2, BAD_PARAMS)],
    ['params null', { jsonrpc: '2.0', id: 3, method: 'ping', params: null }, INVALID(3, BAD_PARAMS)],
    ['params true', { jsonrpc: '2.0', id: 4, method: 'ping', params: true }, INVALID(4, BAD_PARAMS)],
    ['a number', 1, INVALID(null, NOT_OBJECT)],
    ['a string', 'ping', INVALID(null, NOT_OBJECT)],
    ['null', null, INVALID(null, NOT_OBJECT)],
    ['true', true, INVALID(null, NOT_OBJECT)],
    ['a response with both result and error', { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } }, INVALID(1, 'the "method" member is missing')],
    ['a response with a malformed error', { jsonrpc: '2.0', id: 1, error: { code: 'x' } }, INVALID(1, 'the "error" member must have a numeric "code" and a string "message"')],
  ])('%s', async (_label, payload, expected) => {
    const h = harness(server);
    expect(await h.send(payload)).toStrictEqual(expected);
  });

  it('answers a duplicate in-flight id with -32600 and still answers the first request', async () => {
    const s = makeServer();
    const h = harness(s.server);
    const first = h.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'record', arguments: { label: 'slow', wait: true } } });
    await settle();
    expect(await h.send({ jsonrpc: '2.0', id: 5, method: 'ping' })).toStrictEqual(INVALID(5, 'a request with id 5 is already in flight'));
    s.gate('slow').open();
    expect(await first).toStrictEqual({ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'slow' }] } });
    expect(await h.send({ jsonrpc: '2.0', id: 5, method: 'ping' })).toStrictEqual({ jsonrpc: '2.0', id: 5, result: {} });
  });
});

describe('-32601 Method not found', () => {
  it('for a method the server does not know', async () => {
    const h = harness(makeServer().server);
    expect(await h.request('nope')).toStrictEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: nope' } });
    expect(await h.request('tools/nope', {})).toStrictEqual({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: tools/nope' } });
  });

  it('for an unknown method even when its params are an array', async () => {
    const h = harness(makeServer().server);
    expect(await h.send({ jsonrpc: '2.0', id: 1, method: 'subtract', params: [42, 23] })).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found: subtract' },
    });
  });

  it('for a capability the server does not have (nothing registered)', async () => {
    const h = harness(new McpServer({ name: 'empty', version: '1' }));
    for (const method of ['tools/list', 'tools/call', 'resources/list', 'resources/read', 'prompts/list', 'prompts/get', 'completion/complete']) {
      const response = await h.request(method, {});
      expect(response['error']).toStrictEqual({ code: -32601, message: `Method not found: ${method}` });
    }
  });

  it('for a method of the other era (server/discover on a legacy connection)', async () => {
    const h = harness(makeServer().server);
    await h.initialize();
    expect((await h.request('server/discover', {}))['error']).toStrictEqual({ code: -32601, message: 'Method not found: server/discover' });
  });

  it('does not let an inherited property name pass for a method', async () => {
    const h = harness(makeServer().server);
    for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect((await h.request(method, {}))['error']).toStrictEqual({ code: -32601, message: `Method not found: ${method}` });
    }
  });
});
