/**
 * One client cannot take every session: sessions are capped per client (the
 * principal when authenticated, else the remote address, IPv6 by /64) under
 * the global cap, on the node, fetch and express adapters. Real servers on
 * 127.0.0.1; clients on 127.0.0.1 and 127.0.0.2 (both loopback).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SESSIONS_PER_CLIENT } from '../../src/http.js';
import { clientAddressKey } from '../../src/transports/http/client-address.js';
import { buildServer } from '../transports/http/fixtures.js';
import { initializeBody, startNode, type TestServer } from '../transports/http/support.js';
import { ADAPTERS, bearerAuth, requestFrom, type RawResponse } from './sessions-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function initialize(url: string, localAddress = '127.0.0.1', headers: Record<string, string> = {}): Promise<RawResponse> {
  return requestFrom(url, { localAddress, headers, body: initializeBody(3) });
}

function sessionOf(response: RawResponse): string {
  expect(response.status).toBe(200);
  return response.headers['mcp-session-id'] as string;
}

function expectTooMany(response: RawResponse, limit: number): void {
  expect(response.status).toBe(429);
  expect(response.headers['retry-after']).toBe('5');
  expect(JSON.parse(response.body)).toEqual({
    jsonrpc: '2.0',
    id: 3,
    error: {
      code: -32600,
      message: `Too many sessions: this client holds its maximum of ${limit} sessions (maxSessionsPerClient); end unused sessions with DELETE, or retry after one expires`,
    },
  });
}

describe.each(ADAPTERS)('sessions per client (%s adapter)', (_name, start) => {
  it('caps an unauthenticated address; another address still gets in; DELETE frees a slot', async () => {
    server = await start(buildServer().server, { limits: { maxSessionsPerClient: 3 } });
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(sessionOf(await initialize(server.url)));
    expectTooMany(await initialize(server.url), 3);
    sessionOf(await initialize(server.url, '127.0.0.2'));

    const deleted = await requestFrom(server.url, { method: 'DELETE', headers: { 'mcp-session-id': mine[0]! } });
    expect(deleted.status).toBe(204);
    sessionOf(await initialize(server.url));
    expectTooMany(await initialize(server.url), 3);
  });

  it('caps a principal wherever it connects from; other principals and addresses are unaffected', async () => {
    server = await start(buildServer().server, { limits: { maxSessionsPerClient: 2 }, authenticate: bearerAuth });
    sessionOf(await initialize(server.url, '127.0.0.1', { authorization: 'Bearer alice-1' }));
    sessionOf(await initialize(server.url, '127.0.0.2', { authorization: 'Bearer alice-2' }));
    expectTooMany(await initialize(server.url, '127.0.0.3', { authorization: 'Bearer alice-3' }), 2);
    sessionOf(await initialize(server.url, '127.0.0.1', { authorization: 'Bearer bob' }));
    sessionOf(await initialize(server.url, '127.0.0.1'));
  });

  it('keeps the global cap: 503 with -32603 once the server is full, whoever asks', async () => {
    server = await start(buildServer().server, { limits: { maxSessions: 2, maxSessionsPerClient: 5 } });
    sessionOf(await initialize(server.url, '127.0.0.1'));
    sessionOf(await initialize(server.url, '127.0.0.2'));
    const full = await initialize(server.url, '127.0.0.3');
    expect(full.status).toBe(503);
    expect(JSON.parse(full.body)).toMatchObject({ id: 3, error: { code: -32603, message: expect.stringMatching(/maximum of 2 sessions/) } });
  });
});

describe('the finding: one client opening sessions in a loop (node adapter, defaults)', () => {
  it(`stops that client at ${DEFAULT_MAX_SESSIONS_PER_CLIENT} sessions while a new client still gets one`, async () => {
    server = await startNode(buildServer().server, {});
    const attempts = DEFAULT_MAX_SESSIONS_PER_CLIENT + 20;
    const statuses: number[] = [];
    for (let i = 0; i < attempts; i++) statuses.push((await initialize(server.url)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(DEFAULT_MAX_SESSIONS_PER_CLIENT);
    expect(statuses.slice(DEFAULT_MAX_SESSIONS_PER_CLIENT).every((s) => s === 429)).toBe(true);
    sessionOf(await initialize(server.url, '127.0.0.2'));
  });
});

describe('legacy SSE sessions count against the same quota', () => {
  it('refuses GET /sse with 429 beyond the cap, before any stream opens', async () => {
    server = await startNode(buildServer().server, { legacySse: true, limits: { maxSessionsPerClient: 2 } });
    const controller = new AbortController();
    const open = (): Promise<Response> => fetch(new URL('/sse', server!.url), { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    for (const stream of [await open(), await open()]) {
      // Read the endpoint event and keep the stream (and so the session) open.
      const first = await stream.body!.getReader().read();
      expect(new TextDecoder().decode(first.value)).toMatch(/^event: endpoint\n/);
    }
    const third = await open();
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringMatching(/maxSessionsPerClient/) } });
    controller.abort();
  });
});

describe('clientAddressKey', () => {
  it('charges IPv4 by address, IPv4-mapped IPv6 as IPv4, and other IPv6 by /64', () => {
    expect(clientAddressKey(undefined)).toBeUndefined();
    expect(clientAddressKey('')).toBeUndefined();
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0db8:0:0::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
