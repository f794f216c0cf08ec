/**
 * Values sent to a client are serialised the same way on every path (issue 28.3, 28.4):
 * an Error is its name and message (never its stack, never `{}`) in log data, error data
 * and a tool's JSON text; and the in-memory test client (mcpkit/testing) goes through the
 * same wire encoding as stdio and HTTP, so a result holding a BigInt answers -32603
 * "could not be serialised" there too, exactly as over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcProtocolError, McpServer, type ToolReturn } from '../../../src/index.js';
import { withPlainErrors } from '../../../src/jsonrpc/plain-errors.js';
import type { TestClientError } from '../../../src/testing/index.js';
import { openSession, post, rpc, sessionHeaders, startNode, type TestServer } from '../../transports/http/support.js';
import { connected, lastResponse } from '../support.js';

function make(): McpServer {
  const server = new McpServer({ name: 'serialise', version: '1.0.0', logger: { error: () => undefined } });
  server.tool('log_error', {}, async (_args, ctx) => {
    await ctx.log('error', new Error('boom'));
    await ctx.log('warning', { step: 'save', cause: new TypeError('disk full'), list: [new RangeError('late')] });
    return 'logged';
  });
  server.tool('returns_error', {}, () => new Error('as a value') as unknown as ToolReturn<undefined>);
  server.tool('bigint', {}, () => ({ content: [{ type: 'text', text: 'n' }], structuredContent: { n: 10n } }) as unknown as ToolReturn<undefined>);
  server.resource('test://data-error', {}, () => {
    throw new JsonRpcProtocolError(-32000, 'Upstream failed', { cause: new Error('ECONNREFUSED') });
  });
  return server;
}

describe('an Error sent to a client', () => {
  it('ctx.log data: its name and message, nested ones too', async () => {
    const c = await connected(make());
    expect(await c.callTool('log_error', {})).toEqual({ content: [{ type: 'text', text: 'logged' }] });
    const logs = c.messages.filter((m) => 'method' in m && m.method === 'notifications/message').map((m) => (m as { params: unknown }).params);
    expect(logs).toEqual([
      { level: 'error', data: { name: 'Error', message: 'boom' } },
      { level: 'warning', data: { step: 'save', cause: { name: 'TypeError', message: 'disk full' }, list: [{ name: 'RangeError', message: 'late' }] } },
    ]);
    expect(JSON.stringify(c.messages)).not.toContain('    at ');
  });

  it('error data and a tool\'s JSON text', async () => {
    const c = await connected(make());
    expect(await c.callTool('returns_error', {})).toEqual({ content: [{ type: 'text', text: '{"name":"Error","message":"as a value"}' }] });
    await c.readResource('test://data-error').catch(() => undefined);
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'Upstream failed', data: { cause: { name: 'Error', message: 'ECONNREFUSED' } } } });
  });

  it('withPlainErrors copies only the path to an error, and stops at cycles', () => {
    const shared = { keep: 1 };
    const value = { shared, deep: { error: new Error('x') } };
    const plain = withPlainErrors(value) as typeof value;
    expect(plain).not.toBe(value);
    expect(plain.shared).toBe(shared);
    expect(plain.deep).toEqual({ error: { name: 'Error', message: 'x' } });
    expect(withPlainErrors(shared)).toBe(shared);
    const cyclic: Record<string, unknown> = { error: new Error('c') };
    cyclic['self'] = cyclic;
    expect((withPlainErrors(cyclic) as Record<string, unknown>)['error']).toEqual({ name: 'Error', message: 'c' });
  });
});

describe('a result that cannot be serialised', () => {
  let http: TestServer | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  it('answers the same -32603 in the test client as over HTTP', async () => {
    const expected = { code: -32603, message: 'Internal error: the response could not be serialised as JSON' };
    const c = await connected(make());
    const error = (await c.callTool('bigint', {}).catch((e: unknown) => e)) as TestClientError;
    expect(error).toMatchObject({ name: 'TestClientError', code: -32603, message: expect.stringContaining(expected.message) as string });
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 2, error: expected });

    http = await startNode(make());
    const session = await openSession(http.url);
    const response = await post(http.url, rpc(2, 'tools/call', { name: 'bigint', arguments: {} }), sessionHeaders(session));
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 2, error: expected });
  });
});
