/** Sessions: minting, DELETE, idle expiry, the cap, stateless mode and modern (2026-07-28) routing. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from './fixtures.js';
import { eventually, initializeBody, openSession, post, readEvents, rpc, sessionHeaders, startNode, type TestServer } from './support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('stateful sessions', () => {
  it('mints a visible-ASCII session id on initialize and accepts initialized with 202', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const response = await post(server.url, initializeBody());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const id = response.headers.get('mcp-session-id')!;
    expect(id).toMatch(/^[\x21-\x7e]{16,}$/);
    const body = (await response.json()) as { id: number; result: { protocolVersion: string; serverInfo: { name: string } } };
    expect(body.id).toBe(0);
    expect(body.result.protocolVersion).toBe('2025-11-25');
    expect(body.result.serverInfo.name).toBe('http-test');
    const initialized = await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(id));
    expect(initialized.status).toBe(202);
    expect(await initialized.text()).toBe('');
    const second = await openSession(server.url);
    expect(second).not.toBe(id);
  });

  it('ends a session on DELETE: 204, then 404 for every later request', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const id = await openSession(server.url);
    const before = mcp.connectionCount;
    const deleted = await fetch(server.url, { method: 'DELETE', headers: sessionHeaders(id) });
    expect(deleted.status).toBe(204);
    expect(mcp.connectionCount).toBe(before - 1);
    const after = await post(server.url, rpc(1, 'tools/list'), sessionHeaders(id));
    expect(after.status).toBe(404);
    await after.text();
    const again = await fetch(server.url, { method: 'DELETE', headers: sessionHeaders(id) });
    expect(again.status).toBe(404);
    const stream = await fetch(server.url, { headers: { accept: 'text/event-stream', ...sessionHeaders(id) } });
    expect(stream.status).toBe(404);
  });

  it('refuses DELETE without a session header with 400', async () => {
    server = await startNode(buildServer().server);
    const response = await fetch(server.url, { method: 'DELETE' });
    expect(response.status).toBe(400);
  });

  it('does not keep a session when initialize fails', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const response = await post(server.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: ['not', 'an', 'object'] });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = (await response.json()) as { error?: { code: number } };
    expect(body.error?.code).toBe(-32602);
    expect(mcp.connectionCount).toBe(0);
  });

  it('expires idle sessions but keeps one with an open stream', async () => {
    const { server: mcp } = buildServer();
    // Long enough that the streaming session cannot expire before its GET opens on a loaded machine.
    server = await startNode(mcp, { sessions: { idleTimeoutMs: 400 } });
    const idle = await openSession(server.url);
    const streaming = await openSession(server.url);
    const controller = new AbortController();
    const stream = await fetch(server.url, { headers: { accept: 'text/event-stream', ...sessionHeaders(streaming) }, signal: controller.signal });
    expect(stream.status).toBe(200);
    // Polling the idle session would keep it alive: watch its connection close instead.
    await eventually(() => mcp.connectionCount === 1);
    const expired = await post(server.url, rpc(1, 'ping'), sessionHeaders(idle));
    expect(expired.status).toBe(404);
    const alive = await post(server.url, rpc(2, 'ping'), sessionHeaders(streaming));
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    controller.abort();
  });

  it('refuses initialize with 503 when maxSessions is reached, and accepts again after a DELETE', async () => {
    server = await startNode(buildServer().server, { limits: { maxSessions: 2 } });
    const first = await openSession(server.url);
    await openSession(server.url);
    const refused = await post(server.url, initializeBody(9));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    const body = (await refused.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBe(9);
    expect(body.error.message).toContain('maximum of 2 sessions');
    await fetch(server.url, { method: 'DELETE', headers: sessionHeaders(first) });
    expect((await post(server.url, initializeBody())).status).toBe(200);
  });
});

describe('stateless mode', () => {
  it('serves every request through one shared connection and mints no session', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp, { stateless: true });
    const init = await post(server.url, initializeBody());
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    await init.text();
    for (let i = 1; i <= 5; i++) {
      const response = await post(server.url, rpc(i, 'tools/call', { name: 'echo', arguments: { text: `n${i}` } }));
      expect(await response.json()).toMatchObject({ id: i, result: { content: [{ type: 'text', text: `n${i}` }] } });
    }
    expect(mcp.connectionCount).toBe(1);
  });

  it('ignores a session header', async () => {
    server = await startNode(buildServer().server, { stateless: true });
    const response = await post(server.url, rpc(1, 'tools/list'), sessionHeaders('whatever'));
    expect(response.status).toBe(200);
    await response.text();
  });
});

describe('modern (2026-07-28) requests on a stateful endpoint', () => {
  const headers = { 'mcp-protocol-version': '2026-07-28' };

  it('routes them to the shared connection without a session', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    for (let i = 0; i < 3; i++) {
      const response = await post(server.url, rpc(100 + i, 'server/discover', { _meta: MODERN_META }), { ...headers, 'mcp-method': 'server/discover' });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const body = (await response.json()) as { result: { supportedVersions: string[]; resultType: string } };
      expect(body.result.supportedVersions).toContain('2026-07-28');
      expect(body.result.resultType).toBe('complete');
    }
    expect(mcp.connectionCount).toBe(1);
  });

  it('maps protocol errors to HTTP statuses: 404 for unknown methods, 400 for invalid requests', async () => {
    server = await startNode(buildServer().server);
    const cases: [unknown, Record<string, string>, number, number][] = [
      [rpc(1, 'unknown/method', { _meta: MODERN_META }), headers, 404, -32601],
      [rpc(2, 'ping', { _meta: MODERN_META }), headers, 404, -32601],
      [rpc(3, 'server/discover', {}), headers, 400, -32602],
      [rpc(4, 'server/discover', { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': 'v9' } }), headers, 400, -32020],
      [rpc(5, 'server/discover', { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': 'v9' } }), { 'mcp-protocol-version': 'v9' }, 400, -32022],
      [rpc(6, 'tools/list', { _meta: MODERN_META }), { ...headers, 'mcp-method': 'prompts/list' }, 400, -32020],
    ];
    for (const [body, extraHeaders, status, code] of cases) {
      const response = await post(server.url, body, { 'mcp-method': (body as { method: string }).method, ...extraHeaders });
      expect(response.status).toBe(status);
      const parsed = (await response.json()) as { id: unknown; error: { code: number } };
      expect(parsed.error.code).toBe(code);
      expect(parsed.id).toBe((body as { id: number }).id);
    }
  });

  it('streams request notifications without resumability (no event ids)', async () => {
    server = await startNode(buildServer().server);
    const response = await post(
      server.url,
      rpc(7, 'tools/call', { name: 'progress', arguments: {}, _meta: { ...MODERN_META, progressToken: 'tok' } }),
      { ...headers, 'mcp-method': 'tools/call', 'mcp-name': 'progress' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = await readEvents(response);
    expect(events.every((e) => e.id === undefined && e.data !== '')).toBe(true);
    const last = JSON.parse(events.at(-1)!.data) as { id: number; result: { resultType: string } };
    expect(last.id).toBe(7);
    expect(last.result.resultType).toBe('complete');
    expect(events.slice(0, 3).map((e) => (JSON.parse(e.data) as { params: { progress: number } }).params.progress)).toEqual([1, 2, 3]);
  });

  it('answers GET without a session but with a modern version with 405', async () => {
    server = await startNode(buildServer().server);
    const response = await fetch(server.url, { headers: { accept: 'text/event-stream', ...headers } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
