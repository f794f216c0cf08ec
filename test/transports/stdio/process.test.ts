/**
 * A real mcpkit stdio server in its own process (test/fixtures/stdio-server.mjs
 * importing dist/): the seed exchange, stdout carrying nothing but protocol
 * messages, concurrency and EOF behaviour end to end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, spawnFixture } from '../../support/process.js';

afterEach(killAll);

type Json = Record<string, unknown>;

function call(id: number, name: string, args: Json = {}): Json {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

function text(id: number, value: string): Json {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: value }] } };
}

describe('the fixture server process', () => {
  it('answers the seed request line with exactly the seed response line', async () => {
    const server = spawnFixture();
    server.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}');
    await server.lines.waitFor(1);
    expect(server.lines.lines).toEqual(['{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}']);
  });

  it('writes nothing but protocol messages to stdout while tools log to stderr, the logger and the client', async () => {
    const server = spawnFixture();
    server.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    await server.lines.waitFor(1);
    server.revision = '2025-06-18';
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send(call(2, 'noisy'));
    server.send(call(3, 'fail'));
    server.send('this is not json');
    server.send({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'mem://missing' } });
    server.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    await server.lines.waitFor(7);
    server.child.stdin.end();
    expect(await server.exited).toBe(0);

    // Every stdout line parsed as JSON and passed the schema (LineCollector), and nothing else came out.
    expect(server.lines.partial).toBe('');
    expect(server.lines.messages).toHaveLength(7);
    const byId = new Map((server.lines.messages as Json[]).filter((m) => 'id' in m).map((m) => [m['id'], m]));
    expect(((byId.get(1)?.['result'] as Json)['serverInfo'] as Json)['name']).toBe('mcpkit-fixture');
    expect(byId.get(2)).toStrictEqual(text(2, 'quiet result'));
    expect(byId.get(3)).toStrictEqual({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'the tool failed' }], isError: true } });
    expect(byId.get(4)).toStrictEqual({ jsonrpc: '2.0', id: 4, error: { code: -32002, message: 'Resource not found: mem://missing', data: { uri: 'mem://missing' } } });
    expect(byId.get(5)).toStrictEqual({ jsonrpc: '2.0', id: 5, result: {} });
    expect((byId.get(null)?.['error'] as Json)['code']).toBe(-32700);
    expect(server.lines.messages).toContainEqual({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'noisy: client log message' } });

    const stderr = server.stderr();
    expect(stderr).toContain('noisy: console.error output');
    expect(stderr).toContain('noisy: server logger output');
    expect(stderr).toContain('noisy: raw stderr output');
    expect(server.lines.lines.join('\n')).not.toContain('noisy: console.error');
  });

  it('answers a fast request while a slow one is still running in the same process', async () => {
    const server = spawnFixture();
    server.send(call(1, 'wait', { label: 'a' }));
    server.send(call(2, 'echo', { text: 'fast' }));
    await server.lines.waitFor(1);
    expect(server.lines.messages[0]).toStrictEqual(text(2, 'fast'));
    server.send(call(3, 'release', { label: 'a' }));
    await server.lines.waitFor(3);
    expect(server.lines.messages.slice(1)).toEqual(expect.arrayContaining([text(3, 'releasing a'), text(1, 'released a')]));
  });

  it('at stdin EOF, answers what is in flight, then exits 0', async () => {
    const server = spawnFixture();
    server.send(call(1, 'wait', { label: 'b' }));
    server.send(call(2, 'add', { a: 2, b: 3 }));
    server.send(call(3, 'release', { label: 'b' }));
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    const byId = new Map((server.lines.messages as Json[]).map((m) => [m['id'], m]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
    expect(byId.get(1)).toStrictEqual(text(1, 'released b'));
    expect(byId.get(2)).toStrictEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } } });
  });

  it('survives garbage bytes and keeps serving', async () => {
    const server = spawnFixture();
    server.child.stdin.write(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x0a, 0xc3, 0x28, 0x0a]));
    server.send(call(1, 'echo', { text: 'alive' }));
    await server.lines.waitFor(3);
    const answers = (server.lines.messages as Json[]).filter((m) => m['id'] === 1);
    expect(answers).toStrictEqual([text(1, 'alive')]);
    for (const m of (server.lines.messages as Json[]).filter((x) => x['id'] === null)) expect((m['error'] as Json)['code']).toBe(-32700);
    expect(server.child.exitCode).toBeNull();
  });
});
