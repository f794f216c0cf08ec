/** 401 challenges and the protected resource metadata, exactly as the MCP authorization spec words them. */
import { afterEach, describe, expect, it } from 'vitest';
import { answer, bearer, challengeParams, document, initializeBody, post, rpc, startProtected, type Fixture } from './support.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('401 without a usable token', () => {
  it('answers a request without a token with 401 and a challenge without error, naming the metadata', async () => {
    fixture = await startProtected({ scopesSupported: ['mcp:read'] });
    const { mcp } = fixture;
    const response = await post(mcp.url, initializeBody());
    expect(response.status).toBe(401);
    const origin = new URL(mcp.url).origin;
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    const body = await answer(response);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(body.error.message).toMatch(/^Unauthorized: this MCP server needs an OAuth access token/);
  });

  it('names the required scopes in the 401 challenge', async () => {
    fixture = await startProtected({ requiredScopes: ['mcp:read'] });
    const response = await post(fixture.mcp.url, initializeBody());
    expect(response.status).toBe(401);
    const origin = new URL(fixture.mcp.url).origin;
    expect(response.headers.get('www-authenticate')).toBe(`Bearer scope="mcp:read", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('treats another scheme as no token, and refuses a malformed bearer header or a token in the query with 400 invalid_request', async () => {
    fixture = await startProtected();
    const basic = await post(fixture.mcp.url, initializeBody(), { authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
    expect(challengeParams(basic.headers.get('www-authenticate')).error).toBeUndefined();
    const malformed = await post(fixture.mcp.url, initializeBody(), { authorization: 'Bearer two tokens' });
    expect(malformed.status).toBe(400);
    expect(challengeParams(malformed.headers.get('www-authenticate')).error).toBe('invalid_request');
    const token = await fixture.token();
    const inQuery = await post(`${fixture.mcp.url}?access_token=${token}`, initializeBody());
    expect(inQuery.status).toBe(400);
    expect(challengeParams(inQuery.headers.get('www-authenticate'))).toMatchObject({ error: 'invalid_request' });
  });

  it('guards GET and DELETE on the endpoint too', async () => {
    fixture = await startProtected();
    const get = await fetch(fixture.mcp.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(401);
    const del = await fetch(fixture.mcp.url, { method: 'DELETE', headers: { 'mcp-session-id': 'x' } });
    expect(del.status).toBe(401);
  });

  it('lets a valid token through: initialize answers 200 with a session', async () => {
    fixture = await startProtected();
    const response = await post(fixture.mcp.url, initializeBody(), bearer(await fixture.token()));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    expect((await answer(response)).result.protocolVersion).toBe('2025-11-25');
  });

  it('refuses with 403 insufficient_scope when the token lacks the scopes every request needs', async () => {
    fixture = await startProtected({ requiredScopes: ['mcp:read'] });
    const response = await post(fixture.mcp.url, initializeBody(), bearer(await fixture.token('profile')));
    expect(response.status).toBe(403);
    const params = challengeParams(response.headers.get('www-authenticate'));
    expect(params).toMatchObject({ error: 'insufficient_scope', scope: 'mcp:read profile' });
  });
});

describe('protected resource metadata (RFC 9728)', () => {
  it('is served at the path-aware well-known URL and at the root, cacheable and readable from any origin', async () => {
    fixture = await startProtected({ scopesSupported: ['mcp:read', 'offline_access'], resourceName: 'Test server' });
    const origin = new URL(fixture.mcp.url).origin;
    const expected = {
      resource: fixture.mcp.url,
      authorization_servers: [fixture.as.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:read'],
      resource_name: 'Test server',
    };
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      // A foreign Origin is fine here: the document is public (the DNS-rebinding guard protects the endpoint).
      const response = await fetch(`${origin}${path}`, { headers: { origin: 'https://client.example' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(await document(response)).toEqual(expected);
    }
    const preflight = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version');
    const wrong = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`, { method: 'POST' });
    expect(wrong.status).toBe(405);
  });

  it('answers the metadata from the 401 challenge URL, and the well-known URL of another path is not served', async () => {
    fixture = await startProtected();
    const challenge = await post(fixture.mcp.url, rpc(1, 'tools/list'));
    const { resource_metadata: url } = challengeParams(challenge.headers.get('www-authenticate'));
    const metadata = await document(await fetch(url!));
    expect(metadata.resource).toBe(fixture.mcp.url);
    const other = await fetch(`${new URL(fixture.mcp.url).origin}/.well-known/oauth-protected-resource/other`);
    expect(other.status).toBe(401);
  });
});
