/** With `auth`, a session belongs to the user whose token opened it: another user's valid token gets 404, as for an unknown session. */
import { afterEach, describe, expect, it } from 'vitest';
import { answer, bearer, initializeBody, post, PROTOCOL, rpc, startProtected, type Fixture } from './support.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('sessions bound to the token subject', () => {
  it('answers 404 to another user on POST, GET and DELETE, and keeps serving the owner, across a token refresh', async () => {
    fixture = await startProtected();
    const { mcp } = fixture;
    const alice = await fixture.token('files:read', { sub: 'alice' });
    const bob = await fixture.token('files:read files:write', { sub: 'bob' });
    const init = await post(mcp.url, initializeBody(), bearer(alice));
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL };
    await init.text();

    const stolen = await post(mcp.url, rpc(1, 'tools/list'), bearer(bob, session));
    expect(stolen.status).toBe(404);
    expect((await answer(stolen)).error.message).toMatch(/^Session not found/);
    const get = await fetch(mcp.url, { headers: { ...bearer(bob, session), accept: 'text/event-stream' } });
    expect(get.status).toBe(404);
    const del = await fetch(mcp.url, { method: 'DELETE', headers: bearer(bob, session) });
    expect(del.status).toBe(404);

    // Alice, with a fresh token for the same subject, still has her session.
    const refreshed = await fixture.token('files:read', { sub: 'alice' });
    const mine = await post(mcp.url, rpc(2, 'tools/list'), bearer(refreshed, session));
    expect(mine.status).toBe(200);
    expect((await answer(mine)).result.tools.length).toBeGreaterThan(0);
  });

  it('does the same for a legacy HTTP+SSE session', async () => {
    fixture = await startProtected({ listen: { legacySse: true } });
    const origin = new URL(fixture.mcp.url).origin;
    const alice = await fixture.token(undefined, { sub: 'alice' });
    const bob = await fixture.token(undefined, { sub: 'bob' });
    const unauthenticated = await fetch(`${origin}/sse`, { headers: { accept: 'text/event-stream' } });
    expect(unauthenticated.status).toBe(401);
    await unauthenticated.text();
    const controller = new AbortController();
    const stream = await fetch(`${origin}/sse`, { headers: { ...bearer(alice), accept: 'text/event-stream' }, signal: controller.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)/.exec(text)![1]!;
    const stolen = await post(`${origin}${endpoint}`, rpc(1, 'tools/list'), bearer(bob));
    expect(stolen.status).toBe(404);
    const mine = await post(`${origin}${endpoint}`, initializeBody(), bearer(alice));
    expect(mine.status).toBe(202);
    controller.abort();
  });
});
