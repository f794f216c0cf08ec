/**
 * The capture-and-validate helper the other tests rely on must be able to
 * fail: it rejects what the schema rejects, and hand-checks null-id responses.
 */
import { describe, expect, it } from 'vitest';
import { makeServer } from './servers.js';
import { checkOutgoing, harness } from './wire.js';

describe('checkOutgoing', () => {
  it('accepts valid messages of each kind', () => {
    expect(() => checkOutgoing({ jsonrpc: '2.0', id: 1, result: {} }, '2025-11-25', () => 'ping')).not.toThrow();
    expect(() => checkOutgoing({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, '2025-06-18')).not.toThrow();
    expect(() => checkOutgoing({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }, '2024-11-05')).not.toThrow();
    expect(() => checkOutgoing([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'x' } }], '2025-11-25')).not.toThrow();
  });

  it.each([
    ['a result that is not an object', { jsonrpc: '2.0', id: 1, result: 'ok' }, 'ping'],
    ['a tools/call result without content', { jsonrpc: '2.0', id: 1, result: { isError: true } }, 'tools/call'],
    ['an error with a string code', { jsonrpc: '2.0', id: 1, error: { code: '-32600', message: 'x' } }, undefined],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, result: {} }, undefined],
    ['a notification carrying an id', { jsonrpc: '2.0', id: 3, method: 'notifications/tools/list_changed' }, undefined],
    ['a null-id error with an extra member', { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'x' }, extra: 1 }, undefined],
    ['a null-id error with a fractional code', { jsonrpc: '2.0', id: null, error: { code: 1.5, message: 'x' } }, undefined],
    ['a null-id result that breaks the result schema', { jsonrpc: '2.0', id: null, result: { tools: 'none' } }, 'tools/list'],
  ])('rejects %s', (_label, message, method) => {
    expect(() => checkOutgoing(message, '2025-11-25', () => method)).toThrow();
  });

  it('validates against the negotiated revision (audio content is not 2024-11-05)', () => {
    const result = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'audio', data: 'AA==', mimeType: 'audio/wav' }] } };
    expect(() => checkOutgoing(result, '2025-03-26', () => 'tools/call')).not.toThrow();
    expect(() => checkOutgoing(result, '2024-11-05', () => 'tools/call')).toThrow();
  });
});

describe('harness', () => {
  it('fails a test when the server writes a result the schema forbids', async () => {
    const { server } = makeServer();
    let corrupt = false;
    // A middleware rewrites the result on its way to the wire.
    server.use('tools/call', async (_ctx, next) => {
      const result = await next();
      return corrupt ? ({ ...result, content: 'not an array' } as unknown as typeof result) : result;
    });
    const h = harness(server);
    await expect(h.request('tools/call', { name: 'echo', arguments: { text: 'ok' } })).resolves.toBeDefined();
    corrupt = true;
    await expect(h.request('tools/call', { name: 'echo', arguments: { text: 'ok' } })).rejects.toThrow(/invalid 2025-11-25 wire message/);
  });
});
