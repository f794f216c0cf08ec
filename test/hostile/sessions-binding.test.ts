/**
 * A session belongs to the principal that opened it. With `authenticate`,
 * another user's token (or none) on a session, its GET stream, its DELETE and
 * the legacy `/messages?sessionId=` endpoint is answered exactly as an unknown
 * session is: 404, same body, so existence does not leak. Node, fetch and
 * express adapters; real servers on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../transports/http/fixtures.js';
import { initializeBody, PROTOCOL, rpc, type TestServer } from '../transports/http/support.js';
import { ADAPTERS, bearerAuth, requestFrom, type RawResponse } from './sessions-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const auth = (who: string | undefined): Record<string, string> => (who === undefined ? {} : { authorization: `Bearer ${who}` });

function onSession(url: string, session: string, who: string | undefined, method: 'POST' | 'GET' | 'DELETE'): Promise<RawResponse> {
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL, ...auth(who) };
  if (method === 'POST') return requestFrom(url, { headers, body: rpc(1, 'tools/list') });
  if (method === 'GET') return requestFrom(url, { method, headers: { ...headers, accept: 'text/event-stream' }, firstChunkOnly: true });
  return requestFrom(url, { method, headers });
}

async function openAs(url: string, who: string | undefined): Promise<string> {
  const response = await requestFrom(url, { headers: auth(who), body: initializeBody() });
  expect(response.status).toBe(200);
  return response.headers['mcp-session-id'] as string;
}

describe.each(ADAPTERS)('sessions bound to their principal (%s adapter)', (_name, start) => {
  it('answers another principal, or none, on POST, GET and DELETE exactly as an unknown session', async () => {
    server = await start(buildServer().server, { authenticate: bearerAuth });
    const alice = await openAs(server.url, 'alice');
    for (const method of ['POST', 'GET', 'DELETE'] as const) {
      const unknown = await onSession(server.url, 'no-such-session', 'bob', method);
      expect(unknown.status).toBe(404);
      for (const intruder of ['bob', undefined]) {
        const response = await onSession(server.url, alice, intruder, method);
        expect(response.status).toBe(404);
        expect(response.body).toBe(unknown.body);
        expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      }
    }
    // Nothing the intruders did touched the session; the owner, with a refreshed token, still uses and ends it.
    const listed = await onSession(server.url, alice, 'alice-2', 'POST');
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    expect((await onSession(server.url, alice, 'alice', 'DELETE')).status).toBe(204);
    expect((await onSession(server.url, alice, 'alice', 'POST')).status).toBe(404);
  });

  it('binds an anonymous session to nobody: an authenticated caller cannot take it over', async () => {
    server = await start(buildServer().server, { authenticate: bearerAuth });
    const anonymous = await openAs(server.url, undefined);
    expect((await onSession(server.url, anonymous, 'mallory', 'POST')).status).toBe(404);
    expect((await onSession(server.url, anonymous, undefined, 'POST')).status).toBe(200);
  });
});

describe.each(ADAPTERS.filter(([name]) => name !== 'express'))('legacy SSE sessions bound to their principal (%s adapter)', (_name, start) => {
  it('answers 404 on /messages?sessionId= for another principal, 202 for the owner', async () => {
    server = await start(buildServer().server, { authenticate: bearerAuth, legacySse: true });
    const controller = new AbortController();
    const stream = await fetch(new URL('/sse', server.url), { headers: { accept: 'text/event-stream', ...auth('alice') }, signal: controller.signal });
    expect(stream.status).toBe(200);
    const first = new TextDecoder().decode((await stream.body!.getReader().read()).value);
    const endpoint = new URL(/data: (\S+)/.exec(first)![1]!, server.url).toString();
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } } };

    const unknown = await requestFrom(new URL('/messages?sessionId=nope', server.url).toString(), { headers: auth('bob'), body: initialize });
    for (const intruder of ['bob', undefined]) {
      const response = await requestFrom(endpoint, { headers: auth(intruder), body: initialize });
      expect(response.status).toBe(404);
      expect(response.body).toBe(unknown.body);
    }
    expect((await requestFrom(endpoint, { headers: auth('alice'), body: initialize })).status).toBe(202);
    controller.abort();
  });
});
