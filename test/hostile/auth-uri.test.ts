/**
 * With `auth`, the scope check ran before any limit: a resources/read or
 * resources/subscribe of a multi-megabyte URI was matched against every
 * template before `maxUriLength` refused it (one 4 MB URI blocked the event
 * loop for ~0.5 s, per request, for any token holder), and a 403 repeated the
 * whole URI in WWW-Authenticate (a client reading it failed with a header
 * overflow). Real authorization server and mcpkit on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answer, bearer, challengeParams, initializeBody, post, PROTOCOL, rpc, startProtected, type Fixture } from '../auth/support.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function session(token: string): Promise<Record<string, string>> {
  const response = await post(fixture!.mcp.url, initializeBody(), bearer(token));
  expect(response.status).toBe(200);
  await response.text();
  return bearer(token, { 'mcp-session-id': response.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL });
}

describe('auth scope checks stay within the URI limits', () => {
  it('refuses a URI over maxUriLength as too long before matching it for scopes (resources/read and resources/subscribe)', async () => {
    fixture = await startProtected();
    const headers = await session(await fixture.token());
    const uri = `file:///private/${'a'.repeat(1_000_000)}`;
    for (const method of ['resources/read', 'resources/subscribe']) {
      const response = await post(fixture.mcp.url, rpc(1, method, { uri }), headers);
      expect(response.status, method).toBe(200);
      expect(response.headers.get('www-authenticate')).toBeNull();
      const body = await answer(response);
      expect(body.error.code).toBe(-32002);
      expect(body.error.message).toBe(`Resource URI too long: ${uri.length} characters, more than the limit of 8192 (maxUriLength)`);
    }
  });

  it('keeps the 403 step-up for a long URI within the limit, and repeats only its first 200 characters', async () => {
    fixture = await startProtected();
    const headers = await session(await fixture.token());
    const uri = `file:///private/${'b'.repeat(8_000)}`;
    const response = await post(fixture.mcp.url, rpc(2, 'resources/read', { uri }), headers);
    expect(response.status).toBe(403);
    const clipped = `${uri.slice(0, 200)}...`;
    const challenge = challengeParams(response.headers.get('www-authenticate'));
    expect(challenge).toMatchObject({ error: 'insufficient_scope', scope: 'files:read', error_description: `resources/read ${clipped} needs the scope files:read` });
    const body = await answer(response);
    expect(body.error.message).toBe(
      `Forbidden: resources/read "${clipped}" needs the scope(s) files:read, which the access token does not grant; re-authorize with scope "files:read"`,
    );
  });
});

describe('subscriptions/listen and resource scopes (2026-07-28)', () => {
  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };
  const headers = (token: string): Record<string, string> => bearer(token, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' });

  it('asks for the scopes of every resource it would report updates of (403 step-up), as resources/subscribe does', async () => {
    fixture = await startProtected();
    const listen = rpc(4, 'subscriptions/listen', {
      notifications: { resourceSubscriptions: ['file:///public.txt', 'file:///secret.txt', 'file:///private/notes'] },
      _meta: META,
    });
    const response = await post(fixture.mcp.url, listen, headers(await fixture.token()));
    expect(response.status).toBe(403);
    expect(challengeParams(response.headers.get('www-authenticate'))).toMatchObject({ error: 'insufficient_scope', scope: 'files:read' });
    const body = await answer(response);
    expect(body.id).toBe(4);
    expect(body.error.message).toBe('Forbidden: subscriptions/listen needs the scope(s) files:read, which the access token does not grant; re-authorize with scope "files:read"');

    const allowed = await post(fixture.mcp.url, listen, headers(await fixture.token('files:read')));
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toBe('text/event-stream');
    await allowed.body?.cancel();
  });
});
