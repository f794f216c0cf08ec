/** Header rules and limits of the MCP endpoint, asserted on exact statuses, headers and bodies. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from './fixtures.js';
import { initializeBody, openSession, post, rpc, sessionHeaders, startNode, type TestServer } from './support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startNode>[1] = {}, config: Parameters<typeof buildServer>[1] = {}): Promise<TestServer> {
  server = await startNode(buildServer(undefined, config).server, options);
  return server;
}

async function errorOf(response: Response): Promise<{ id: unknown; code: number; message: string; data?: unknown }> {
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string; data?: unknown } };
  expect(body.jsonrpc).toBe('2.0');
  return { id: body.id, ...body.error };
}

describe('Accept', () => {
  it.each(['application/json', 'text/event-stream', 'text/html', 'application/json, text/event-stream;q=0'])('refuses a POST accepting only %s with 406', async (accept) => {
    const { url } = await start();
    const response = await post(url, initializeBody(), { accept });
    expect(response.status).toBe(406);
    const error = await errorOf(response);
    expect(error).toMatchObject({ id: null, code: -32600 });
    expect(error.message).toContain('application/json and text/event-stream');
  });

  it.each(['*/*', 'application/*, text/*', 'text/event-stream, application/json'])('accepts %s', async (accept) => {
    const { url } = await start();
    const response = await post(url, initializeBody(), { accept });
    expect(response.status).toBe(200);
    await response.text();
  });

  it('refuses a GET that does not accept text/event-stream with 406', async () => {
    const { url } = await start();
    const id = await openSession(url);
    const response = await fetch(url, { headers: { accept: 'application/json', ...sessionHeaders(id) } });
    expect(response.status).toBe(406);
    expect((await errorOf(response)).message).toContain('text/event-stream');
  });
});

describe('Content-Type', () => {
  it.each([['text/plain'], ['application/x-www-form-urlencoded']])('refuses %s with 415', async (type) => {
    const { url } = await start();
    const response = await post(url, initializeBody(), { 'content-type': type });
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toMatchObject({ code: -32600 });
  });

  it('accepts application/json with a charset', async () => {
    const { url } = await start();
    const response = await post(url, initializeBody(), { 'content-type': 'application/json; charset=utf-8' });
    expect(response.status).toBe(200);
    await response.text();
  });
});

describe('body', () => {
  it('answers invalid JSON with 400 and -32700, id null', async () => {
    const { url } = await start();
    const response = await post(url, '{"jsonrpc":"2.0",');
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ id: null, code: -32700 });
    expect(error.message).toMatch(/^Parse error: /);
  });

  it('answers an empty body with 400 and -32700', async () => {
    const { url } = await start();
    const response = await post(url, '');
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ id: null, code: -32700 });
  });

  it('refuses a body over maxBodyBytes with 413 (declared length)', async () => {
    const { url } = await start({ limits: { maxBodyBytes: 1024 } });
    const response = await post(url, rpc(1, 'tools/list', { padding: 'x'.repeat(2000) }));
    expect(response.status).toBe(413);
    const error = await errorOf(response);
    expect(error).toMatchObject({ code: -32600 });
    expect(error.message).toContain('1024 bytes');
  });

  it('refuses a streamed (chunked) body over maxBodyBytes with 413', async () => {
    const { url } = await start({ limits: { maxBodyBytes: 1024 } });
    const chunk = new TextEncoder().encode('x'.repeat(600));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 4) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
      duplex: 'half',
    });
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toMatchObject({ code: -32600 });
  });

  it('refuses a batch over maxBatchSize with 400 and -32600', async () => {
    const { url } = await start({}, { limits: { maxBatchSize: 3 } });
    const id = await openSession(url);
    const batch = [1, 2, 3, 4].map((n) => rpc(n, 'ping'));
    const response = await post(url, batch, sessionHeaders(id));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ id: null, code: -32600 });
    expect(error.message).toContain('4 messages');
    expect(error.message).toContain('limit of 3');
  });

  it('answers a notification with 202 and no body', async () => {
    const { url } = await start();
    const id = await openSession(url);
    const response = await post(url, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, sessionHeaders(id));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('answers an invalid message that is not a request with 400 and its error', async () => {
    const { url } = await start();
    const id = await openSession(url);
    const response = await post(url, { jsonrpc: '1.0', method: 'notifications/initialized' }, sessionHeaders(id));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: -32600 });
  });
});

describe('sessions and versions', () => {
  it('refuses a request without Mcp-Session-Id with 400, echoing its id', async () => {
    const { url } = await start();
    const response = await post(url, rpc(7, 'tools/list'));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ id: 7, code: -32600 });
    expect(error.message).toContain('Mcp-Session-Id');
  });

  it('answers an unknown session with 404', async () => {
    const { url } = await start();
    const response = await post(url, rpc(1, 'tools/list'), sessionHeaders('no-such-session'));
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toContain('initialize');
  });

  it('refuses an unsupported MCP-Protocol-Version with 400 naming the supported ones', async () => {
    const { url } = await start();
    const id = await openSession(url);
    const response = await post(url, rpc(1, 'tools/list'), { 'mcp-session-id': id, 'mcp-protocol-version': '2099-01-01' });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe(-32022);
    expect(error.message).toContain('"2099-01-01"');
    expect(error.data).toEqual({ supported: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'], requested: '2099-01-01' });
  });

  it('treats a missing MCP-Protocol-Version as the negotiated (or 2025-03-26) version', async () => {
    const { url } = await start();
    const id = await openSession(url);
    const response = await post(url, rpc(1, 'tools/list'), { 'mcp-session-id': id });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });
});

describe('methods and paths', () => {
  it('answers an unsupported method with 405 and Allow', async () => {
    const { url } = await start();
    const response = await fetch(url, { method: 'PUT', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
    expect(await errorOf(response)).toMatchObject({ code: -32600 });
  });

  it('allows only POST when stateless', async () => {
    const { url } = await start({ stateless: true });
    for (const method of ['GET', 'DELETE', 'PATCH']) {
      const response = await fetch(url, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      await response.text();
    }
  });

  it('answers other paths with 404', async () => {
    const { url } = await start();
    const response = await post(new URL('/other', url).toString(), initializeBody());
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toContain('/mcp');
  });
});
