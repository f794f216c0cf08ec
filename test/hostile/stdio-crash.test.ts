/**
 * Property 1 of the hardening issue over stdio, in a server process of its own: a response
 * that cannot be serialised is answered -32603 to its own id (never -32700 with id null),
 * unknown inputResponses keys are ignored, a client that closes stdout, stops reading it or
 * closes stdin cannot crash the process or keep it alive, and console output never reaches
 * the protocol stream.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deepJson, expectHealthy, killAll, LEGACY, modernMeta, MODERN, spawnStdio, unserialisable, type Json, type StdioProcess } from './crash-support.js';

afterEach(killAll);

function call(id: number, name: string, args: Json = {}): Json {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

function text(id: number, value: string, extra: Json = {}): Json {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: value }], ...extra } };
}

async function initialized(env: Record<string, string> = {}): Promise<StdioProcess> {
  const server = spawnStdio(env);
  server.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'hostile', version: '1' } } });
  await server.lines.waitFor(1);
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return server;
}

/** The answers (messages with an id) after the first `skip`, by id. */
function answers(server: StdioProcess, skip = 1): Map<unknown, Json> {
  return new Map((server.lines.messages.slice(skip) as Json[]).filter((m) => 'id' in m).map((m) => [m['id'], m]));
}

describe('stdio: responses that cannot be serialised', () => {
  it('answers -32603 to the request itself, and the process goes on serving', async () => {
    const server = await initialized();
    // Deep arguments echoed as structuredContent, then every poison in the result and in error data.
    server.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo_structured","arguments":{"value":${deepJson(100_000)}}}}`);
    const poisons: [number, Json][] = [];
    let id = 2;
    for (const where of ['result', 'error']) for (const kind of ['bigint', 'cycle', 'tojson', 'deep']) poisons.push([id++, { kind, where }]);
    for (const [n, args] of poisons) server.send(call(n, 'poison', args));
    server.send({ jsonrpc: '2.0', id: 50, method: 'ping' });
    await server.lines.waitFor(2 + poisons.length + 1);
    const byId = answers(server);
    expect(byId.get(1)).toEqual(unserialisable(1));
    for (const [n, args] of poisons) expect(byId.get(n), JSON.stringify(args)).toEqual(unserialisable(n));
    expect(byId.get(50)).toEqual({ jsonrpc: '2.0', id: 50, result: {} });
    expect(byId.has(null)).toBe(false);
    expectHealthy(server);
  });

  it('fails only the tool call whose log notification cannot be serialised', async () => {
    const server = await initialized();
    server.send(call(1, 'poison', { kind: 'cycle', where: 'log' }));
    server.send(call(2, 'echo_structured', { ok: true }));
    await server.lines.waitFor(3);
    const byId = answers(server);
    expect(byId.get(1)).toEqual(
      text(1, 'notifications/message could not be serialised as JSON (a cyclic, too deeply nested or BigInt value); it was not sent', { isError: true }),
    );
    expect(byId.get(2)).toEqual(text(2, 'echoed', { structuredContent: { ok: true } }));
    expectHealthy(server);
  });

  it('keeps -32700 with id null for a line that is not JSON, and serves on', async () => {
    const server = await initialized();
    server.send('{"jsonrpc":"2.0","id":1,');
    server.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await server.lines.waitFor(3);
    expect(server.lines.messages.slice(1)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) as unknown } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  });

  it('ignores an unknown inputResponses key nested 6,000 deep on a 2026-07-28 request', async () => {
    const server = spawnStdio();
    server.revision = MODERN;
    const params = `{"name":"ask","arguments":{},"inputResponses":{"attack":${deepJson(6_000)}},"_meta":${JSON.stringify(modernMeta())}}`;
    server.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${params}}`);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo_structured', arguments: { ok: 1 }, _meta: modernMeta() } });
    await server.lines.waitFor(2);
    const byId = answers(server, 0);
    expect((byId.get(1)?.['result'] as Json)['resultType']).toBe('input_required');
    expect((byId.get(2)?.['result'] as Json)['structuredContent']).toEqual({ ok: 1 });
    expectHealthy(server);
  });
});

describe('stdio: a client that misbehaves with the pipes', () => {
  it('closing its end of stdout ends the server cleanly (EPIPE), with no crash', async () => {
    const server = await initialized();
    server.child.stdout.destroy();
    server.send(call(1, 'echo_structured', { value: 'x'.repeat(100_000) }));
    server.send(call(2, 'sleepy'));
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toMatch(/^\[logged\] mcpkit: transport error Error\n$/);
  });

  it('not reading stdout: past maxOutputBuffer the transport closes and aborts what runs, instead of queueing 10 MB', async () => {
    const server = await initialized({ CRASH_MAX_OUTPUT: String(1024 * 1024) });
    server.child.stdout.pause();
    server.send(call(1, 'sleepy'));
    server.send(call(2, 'flood', { count: 10_000 }));
    await vi.waitFor(() => expect(server.stderr()).toBe('[logged] mcpkit: transport error OutputClosedError\n'), { timeout: 15_000 });
    // Only the bytes already handed to the pipe keep it alive; once the client lets go, it exits
    // (the sleepy request was aborted, or its hour-long timer would hold the process).
    server.child.stdout.destroy();
    expect(await server.exited).toBe(0);
  });

  it('after EOF, a request that is still running is aborted once eofGraceMs has passed, and the process exits', async () => {
    const server = await initialized({ CRASH_EOF_GRACE_MS: '50' });
    server.send(call(1, 'sleepy'));
    server.send(call(2, 'echo_structured', { done: true }));
    await server.lines.waitFor(2);
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    expect(answers(server).get(2)).toEqual(text(2, 'echoed', { structuredContent: { done: true } }));
    expect(server.stderr()).toBe('');
  });
});

describe('stdio: console output', () => {
  it('routes console.log/info/debug to stderr: stdout carries protocol messages only', async () => {
    const server = await initialized();
    server.send(call(1, 'print'));
    await server.lines.waitFor(2);
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    expect(server.lines.partial).toBe('');
    expect(server.lines.messages[1]).toEqual(text(1, 'printed'));
    expect(server.stderr()).toBe('stray console.log\nstray console.info\nstray console.debug\n');
  });
});
