/**
 * The error model on the wire: -32602 for bad params and unknown names,
 * -32603 "Internal error" (fixed message, never the original, never a stack)
 * for resource/prompt handlers that throw, JsonRpcProtocolError as-is, and
 * tool failures as `isError` results.
 */
import { describe, expect, it } from 'vitest';
import { errorResponseFrom, JsonRpcProtocolError } from '../../src/jsonrpc/errors.js';
import { harness } from '../support/wire.js';
import { makeServer } from '../support/servers.js';

const INTERNAL = { code: -32603, message: 'Internal error' };

function invalidParams(message: string): { code: number; message: string } {
  return { code: -32602, message: `Invalid params: ${message}` };
}

describe('-32602 Invalid params', () => {
  it.each([
    ['an unknown tool', 'tools/call', { name: 'nope', arguments: {} }, invalidParams('Unknown tool: nope')],
    ['a tools/call without a name', 'tools/call', { arguments: {} }, invalidParams('"name" must be a string (it is missing)')],
    ['a non-string tool name', 'tools/call', { name: 42 }, invalidParams('"name" must be a string')],
    ['arguments as a string', 'tools/call', { name: 'echo', arguments: 'hi' }, invalidParams('"arguments" must be an object')],
    ['arguments as an array', 'tools/call', { name: 'echo', arguments: ['hi'] }, invalidParams('"arguments" must be an object')],
    ['arguments null', 'tools/call', { name: 'echo', arguments: null }, invalidParams('"arguments" must be an object')],
    ['an unknown prompt', 'prompts/get', { name: 'nope' }, invalidParams('Unknown prompt: nope')],
    ['a prompts/get without a name', 'prompts/get', {}, invalidParams('"name" must be a string (it is missing)')],
    ['a missing required prompt argument', 'prompts/get', { name: 'greet', arguments: {} }, invalidParams('Prompt "greet" is missing required argument: name')],
    ['a non-string prompt argument', 'prompts/get', { name: 'greet', arguments: { name: 3 } }, invalidParams('prompt argument "name" must be a string')],
    ['prompt arguments as an array', 'prompts/get', { name: 'greet', arguments: ['x'] }, invalidParams('"arguments" must be an object')],
    ['a resources/read without a uri', 'resources/read', {}, invalidParams('"uri" must be a string (it is missing)')],
  ])('for %s', async (_label, method, params, error) => {
    const h = harness(makeServer().server);
    expect(await h.request(method, params)).toStrictEqual({ jsonrpc: '2.0', id: 1, error });
  });

  it.each(['tools/call', 'tools/list', 'prompts/get', 'resources/read', 'ping', 'initialize'])('for array params on %s', async (method) => {
    const h = harness(makeServer().server);
    expect(await h.send({ jsonrpc: '2.0', id: 1, method, params: ['echo', { text: 'hi' }] })).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      error: invalidParams(`${method} takes named parameters (an object), not an array`),
    });
  });
});

describe('-32603 Internal error', () => {
  it.each([
    ['a resource reader', 'resources/read', { uri: 'mem://boom' }, 'cannot open'],
    ['a prompt handler', 'prompts/get', { name: 'boom' }, 'prompt store'],
  ])('when %s throws: exactly {"code":-32603,"message":"Internal error"}', async (_label, method, params, secret) => {
    const s = makeServer();
    const h = harness(s.server);
    const response = await h.request(method, params);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: 1, error: INTERNAL });
    const wire = JSON.stringify(response);
    expect(wire).not.toContain(secret);
    expect(wire).not.toContain('/srv/secret');
    expect(wire).not.toMatch(/\bat .*:\d+:\d+/);
    // The original error goes to the server's logger, not to the client.
    expect(s.logger.error).toHaveBeenCalledTimes(1);
  });

  it('errorResponseFrom never reads .stack or the message of a foreign error', () => {
    const error = new Error('secret');
    Object.defineProperty(error, 'stack', {
      get() {
        throw new Error('stack was read');
      },
    });
    expect(errorResponseFrom(7, error)).toStrictEqual({ jsonrpc: '2.0', id: 7, error: INTERNAL });
    expect(errorResponseFrom('x', 'a string')).toStrictEqual({ jsonrpc: '2.0', id: 'x', error: INTERNAL });
    expect(errorResponseFrom(null, undefined)).toStrictEqual({ jsonrpc: '2.0', id: null, error: INTERNAL });
    // Something that merely looks like a protocol error (a Node system error) is not trusted.
    expect(errorResponseFrom(1, Object.assign(new Error('EACCES /etc/shadow'), { code: -32000 }))).toStrictEqual({ jsonrpc: '2.0', id: 1, error: INTERNAL });
  });
});

describe('JsonRpcProtocolError', () => {
  it.each([
    ['a tool', 'tools/call', { name: 'protocol' }, { code: -32050, message: 'Custom failure', data: { hint: 'retry later' } }],
    ['a resource reader', 'resources/read', { uri: 'mem://protocol' }, { code: -32051, message: 'Resource locked', data: { retry: true } }],
    ['a prompt handler', 'prompts/get', { name: 'protocol' }, { code: -32052, message: 'Prompt disabled', data: { reason: 'maintenance' } }],
  ])('thrown by %s reaches the wire with its code, message and data as-is', async (_label, method, params, error) => {
    const h = harness(makeServer().server);
    expect(await h.request(method, params)).toStrictEqual({ jsonrpc: '2.0', id: 1, error });
  });

  it('without data carries no data member', () => {
    expect(errorResponseFrom(3, new JsonRpcProtocolError(-32001, 'Nope'))).toStrictEqual({ jsonrpc: '2.0', id: 3, error: { code: -32001, message: 'Nope' } });
  });
});

describe('tool failures are results the model can read', () => {
  it('a tool that throws answers isError:true with the error message as text', async () => {
    const h = harness(makeServer().server);
    expect(await h.request('tools/call', { name: 'boom', arguments: {} })).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'kaboom: /srv/secret/path' }], isError: true },
    });
  });

  it('with maskErrors: true a plain Error becomes "Internal error"', async () => {
    const h = harness(makeServer({ results: { maskErrors: true } }).server);
    expect(await h.request('tools/call', { name: 'boom', arguments: {} })).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'Internal error' }], isError: true },
    });
  });

  it.each([false, true])('a ToolError keeps its message (maskErrors: %s)', async (maskErrors) => {
    const h = harness(makeServer({ results: { maskErrors } }).server);
    expect(await h.request('tools/call', { name: 'refuse' })).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'try a smaller number' }], isError: true },
    });
  });

  it.each([false, true])('arguments that fail the input schema answer isError:true (maskErrors: %s)', async (maskErrors) => {
    const h = harness(makeServer({ results: { maskErrors } }).server);
    const response = await h.request('tools/call', { name: 'echo', arguments: { text: 5 } });
    const result = response['result'] as { isError: boolean; content: { type: string; text: string }[] };
    expect(Object.keys(response).sort()).toEqual(['id', 'jsonrpc', 'result']);
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0]!.type).toBe('text');
    // The message names the offending argument (the wording belongs to the schema layer).
    expect(result.content[0]!.text).toMatch(/^Invalid arguments\b.*"text"/);
  });
});
