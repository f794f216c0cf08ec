/** Engine behaviour seen from the ConnectionFactory side, with the hand-written stand-in. */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionFactory } from '../../../src/protocol/connection.js';
import { JsonRpcProtocolError } from '../../../src/jsonrpc/errors.js';
import { StandInFactory } from './stand-in.js';
import { eventually, initializeBody, post, readEvents, rpc, sessionHeaders, startNode, type TestServer } from './support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function session(url: string): Promise<string> {
  const response = await post(url, initializeBody());
  await response.text();
  return response.headers.get('mcp-session-id')!;
}

describe('what handlers receive', () => {
  it('opens one connection per session with its id and a sink, passes lower-cased headers, version and auth info', async () => {
    const factory = new StandInFactory();
    server = await startNode(factory, { authenticate: (request) => ({ token: request.headers['authorization'] ?? 'none', scopes: ['read'] }) });
    // The session is bound to the principal that opened it, so the same token opens it.
    const opened = await post(server.url, initializeBody(), { Authorization: 'Bearer t' });
    await opened.text();
    const id = opened.headers.get('mcp-session-id')!;
    expect(factory.opened).toHaveLength(1);
    expect(factory.opened[0]!.options?.sessionId).toBe(id);
    expect(typeof factory.opened[0]!.options?.send).toBe('function');
    const response = await post(server.url, rpc(1, 'tools/call', { name: 'echo' }), { ...sessionHeaders(id), Authorization: 'Bearer t', 'X-Custom': 'v' });
    await response.text();
    const extra = factory.opened[0]!.extras.at(-1)!;
    expect(extra.protocolVersion).toBe('2025-11-25');
    expect(extra.authInfo).toEqual({ token: 'Bearer t', scopes: ['read'] });
    expect(extra.requestInfo?.headers['x-custom']).toBe('v');
    // An AbortSignal-like cancellation handle (not an AbortController per request).
    expect(extra.signal?.aborted).toBe(false);
    expect(typeof extra.signal?.addEventListener).toBe('function');
    expect(typeof extra.send).toBe('function');
    expect(typeof extra.closeStream).toBe('function');
  });

  it("passes 2025-03-26 for a legacy request without MCP-Protocol-Version, the raw header (or none) for a modern one", async () => {
    const factory = new StandInFactory();
    server = await startNode(factory, { stateless: true });
    await (await post(server.url, rpc(1, 'tools/call', { name: 'echo' }))).text();
    const modern = { name: 'echo', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    await (await post(server.url, rpc(2, 'tools/call', modern))).text();
    await (await post(server.url, rpc(3, 'tools/call', modern), { 'mcp-protocol-version': '2026-07-28' })).text();
    const [legacy, modernConnection] = factory.opened;
    expect(legacy!.extras[0]!.protocolVersion).toBe('2025-03-26');
    expect(modernConnection!.extras.map((e) => e.protocolVersion)).toEqual([undefined, '2026-07-28']);
    // Stateless and modern streams cannot be resumed, so handlers get no closeStream.
    expect(legacy!.extras[0]!.closeStream).toBeUndefined();
    expect(modernConnection!.extras[0]!.closeStream).toBeUndefined();
  });

  it('answers 401 when authenticate throws, before the body is read', async () => {
    server = await startNode(new StandInFactory(), {
      authenticate: (request) => {
        if (request.headers['authorization'] === undefined) throw new JsonRpcProtocolError(-32600, 'Unauthorized: send a bearer token');
        return { token: 'ok' };
      },
    });
    const refused = await post(server.url, '{not json');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Unauthorized: send a bearer token' } });
    const accepted = await post(server.url, initializeBody(), { authorization: 'Bearer x' });
    expect(accepted.status).toBe(200);
  });

  it('delivers messages on the connection sink to the standalone stream', async () => {
    const factory = new StandInFactory();
    server = await startNode(factory);
    const id = await session(server.url);
    const stream = await fetch(server.url, { headers: { accept: 'text/event-stream', ...sessionHeaders(id) } });
    const collected = readEvents(stream, (event) => event.data.includes('list_changed'));
    const response = await post(server.url, rpc(1, 'tools/call', { name: 'notify' }), sessionHeaders(id));
    expect(response.headers.get('content-type')).toBe('application/json');
    await response.text();
    const events = await collected;
    expect(events.at(-1)!.data).toBe('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}');
  });
});

describe('closeStream before any message', () => {
  it('starts the stream with a priming event, ends it with retry, and the result arrives on resumption', async () => {
    const factory = new StandInFactory();
    server = await startNode(factory);
    const id = await session(server.url);
    const response = await post(server.url, rpc(1, 'tools/call', { name: 'early-close' }), sessionHeaders(id));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = await readEvents(response);
    expect(events).toEqual([{ id: events[0]!.id, data: '' }, { data: '', retry: 5 }]);
    const resumed = await fetch(server.url, { headers: { accept: 'text/event-stream', 'last-event-id': events[0]!.id!, ...sessionHeaders(id) } });
    factory.gates.open('early');
    const rest = await readEvents(resumed);
    expect(rest.map((e) => JSON.parse(e.data) as unknown)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'late result' }] } }]);
  });
});

describe('failures never leak', () => {
  it('turns a rejected handleMessage into -32603 "Internal error" without details', async () => {
    const rejecting: ConnectionFactory = {
      openConnection: () => ({
        handleMessage: () => Promise.reject(new Error('secret internals at /srv/db')),
        close: () => undefined,
      }),
    };
    server = await startNode(rejecting, { stateless: true });
    const response = await post(server.url, rpc(1, 'tools/list'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
    expect(text).not.toContain('secret');
  });

  it('keeps serving after a rejected request', async () => {
    const factory = new StandInFactory();
    server = await startNode(factory);
    const id = await session(server.url);
    const failed = await post(server.url, rpc(1, 'tools/call', { name: 'reject' }), sessionHeaders(id));
    expect(((await failed.json()) as { error: { message: string } }).error.message).toBe('Internal error');
    const ok = await post(server.url, rpc(2, 'tools/call', { name: 'echo' }), sessionHeaders(id));
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it('closes the session connection on DELETE and on shutdown', async () => {
    const factory = new StandInFactory();
    server = await startNode(factory);
    const a = await session(server.url);
    await session(server.url);
    await fetch(server.url, { method: 'DELETE', headers: sessionHeaders(a) });
    expect(factory.opened[0]!.closed).toBe('session ended by the client');
    await server.close();
    server = undefined;
    await eventually(() => factory.opened[1]!.closed !== undefined);
    expect(factory.opened[1]!.closed).toBe('server shutting down');
  });
});
