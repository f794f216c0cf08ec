/**
 * A server that trusts two authorization servers: the same `sub` from each is two people
 * (a subject is unique only within its issuer), so what one of them makes the server hold —
 * a legacy session, a task, a 2026-07-28 `requestState` — is out of the other's reach, while a
 * second token of the same issuer and subject (a refresh) still reaches it. Real JWTs from two
 * test authorization servers on 127.0.0.1, verified by `jwtVerifier()` over the real HTTP gate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier } from '../../src/auth.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { McpServer } from '../../src/index.js';
import { modernCall, modernResult, type Json } from '../hostile/tasks-support.js';
import { startAuthServer, type TestAuthServer } from './as.js';
import { initializeBody, post, rpc } from './support.js';

const none = { type: 'object', properties: {} } as const;
let a: TestAuthServer;
let b: TestAuthServer;
let mcp: McpHttpListener;
/** alice at issuer A (twice: a refreshed token) and alice at issuer B. */
let aliceA: string;
let aliceA2: string;
let aliceB: string;

beforeAll(async () => {
  [a, b] = await Promise.all([startAuthServer(), startAuthServer()]);
  const server = new McpServer({ name: 'two-issuers', version: '1.0.0' });
  server.tool('ask', { input: none, task: 'optional' }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { key: 'name' });
    return `hello ${String(answer.content?.['name'])}`;
  });
  mcp = await listen(server, { port: 0, host: '127.0.0.1', keepAliveMs: 0, auth: { authorizationServers: [a.issuer, b.issuer], verify: jwtVerifier() } });
  [aliceA, aliceA2, aliceB] = await Promise.all([
    a.token({ aud: mcp.url, sub: 'alice' }),
    a.token({ aud: mcp.url, sub: 'alice', extra: { jti: 'refreshed' } }),
    b.token({ aud: mcp.url, sub: 'alice' }),
  ]);
  expect(aliceA2).not.toBe(aliceA);
});
afterAll(async () => {
  await mcp.close({ graceMs: 0 });
  await Promise.all([a.close(), b.close()]);
});

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

describe('one subject from two trusted issuers is two principals', () => {
  it('a legacy session opened by alice@A is an unknown session (404) for alice@B, and open for her refreshed token', async () => {
    const opened = await post(mcp.url, initializeBody(), bearer(aliceA));
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id');
    expect(sessionId).toBeTruthy();
    await opened.text();
    const withSession = (token: string): Record<string, string> => ({ ...bearer(token), 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-06-18' });

    const foreign = await post(mcp.url, rpc(1, 'tools/list', {}), withSession(aliceB));
    expect(foreign.status).toBe(404);
    await foreign.text();
    const own = await post(mcp.url, rpc(2, 'tools/list', {}), withSession(aliceA2));
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('"ask"');
  });

  it('a task created by alice@A answers alice@B as an unknown task; her refreshed token reads it', async () => {
    const created = await modernResult(mcp.url, 'tools/call', { name: 'ask', arguments: {} }, { user: aliceA });
    const taskId = String(created['taskId']);
    const foreign = await modernCall(mcp.url, 'tasks/get', { taskId }, { user: aliceB });
    expect(foreign.message['error']).toEqual({ code: -32602, message: `Invalid params: unknown task "${taskId}" (it never existed, or it expired)` });
    await expect.poll(async () => (await modernResult(mcp.url, 'tasks/get', { taskId }, { user: aliceA2 }))['status']).toBe('input_required');
    await modernResult(mcp.url, 'tasks/cancel', { taskId }, { user: aliceA });
  });

  it('a requestState issued to alice@A is refused for alice@B, and accepted for her refreshed token', async () => {
    const capabilities = { elicitation: {} };
    const first = await modernResult(mcp.url, 'tools/call', { name: 'ask', arguments: {} }, { user: aliceA, capabilities });
    expect(first['resultType']).toBe('input_required');
    const retry = (token: string): Promise<{ message: Json }> =>
      modernCall(mcp.url, 'tools/call', { name: 'ask', arguments: {}, requestState: first['requestState'], inputResponses: { name: { action: 'accept', content: { name: 'Alice' } } } }, { user: token, capabilities });

    const foreign = (await retry(aliceB)).message['error'] as Json;
    expect(foreign['code']).toBe(-32602);
    expect(String(foreign['message'])).toMatch(/^Invalid requestState/);
    expect((await retry(aliceA2)).message['result']).toMatchObject({ content: [{ type: 'text', text: 'hello Alice' }], resultType: 'complete' });
  });
});
