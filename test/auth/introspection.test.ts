/** The RFC 7662 introspection verifier against the test authorization server's endpoint. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { introspectionVerifier } from '../../src/auth.js';
import { startAuthServer, type TestAuthServer } from './as.js';
import { bearer, challengeParams, initializeBody, post, protectedServer, toolText } from './support.js';
import { listen, type McpHttpListener } from '../../src/http.js';

let as: TestAuthServer;
let mcp: McpHttpListener;
let url: string;
beforeAll(async () => {
  as = await startAuthServer();
  mcp = await listen(protectedServer(), {
    keepAliveMs: 0,
    auth: {
      authorizationServers: [as.issuer],
      verify: introspectionVerifier({ endpoint: `${as.issuer}/introspect`, ...as.introspectionClient }),
    },
  });
  url = mcp.url;
});
afterAll(async () => {
  await mcp.close({ graceMs: 0 });
  await as.close();
});

const inFiveMinutes = (): number => Math.floor(Date.now() / 1000) + 300;

describe('introspectionVerifier', () => {
  it('accepts an active opaque token for this resource, with its subject, client and scopes', async () => {
    const token = as.opaque({ aud: url, sub: 'ada', client_id: 'app', scope: 'files:read files:write', exp: inFiveMinutes() });
    const init = await post(url, initializeBody(), bearer(token));
    expect(init.status).toBe(200);
    const headers = bearer(token, { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' });
    const whoami = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami' } }, headers);
    const seen = JSON.parse(await toolText(whoami)) as { auth: unknown };
    expect(seen.auth).toMatchObject({ subject: 'ada', clientId: 'app', scopes: ['files:read', 'files:write'] });
    const write = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'write_file' } }, headers);
    expect(write.status).toBe(200);
  });

  it('refuses unknown, inactive, expired, foreign-audience, audience-less and foreign-issuer tokens with 401 invalid_token', async () => {
    const cases: [string, RegExp][] = [
      ['never-issued', /not active/],
      [as.opaque({ aud: 'https://other.example/mcp', sub: 'ada', exp: inFiveMinutes() }), /not issued for this server/],
      [as.opaque({ sub: 'ada', exp: inFiveMinutes() }), /not issued for this server/],
      [as.opaque({ aud: url, sub: 'ada', exp: Math.floor(Date.now() / 1000) - 60 }), /expired/],
      [as.opaque({ aud: url, sub: 'ada', iss: 'https://evil.example' }), /trusted authorization server/],
    ];
    for (const [token, description] of cases) {
      const response = await post(url, initializeBody(), bearer(token));
      expect(response.status, token).toBe(401);
      const params = challengeParams(response.headers.get('www-authenticate'));
      expect(params.error).toBe('invalid_token');
      expect(params.error_description).toMatch(description);
    }
  });

  it('answers 503 when the endpoint refuses the resource server itself (bad credentials)', async () => {
    const verify = introspectionVerifier({ endpoint: `${as.issuer}/introspect`, clientId: 'mcp-resource-server', clientSecret: 'wrong' });
    const token = as.opaque({ aud: url, sub: 'ada' });
    await expect(verify(token, undefined as never, { resource: url, authorizationServers: [as.issuer] })).rejects.toThrow(/answered 401/);
  });

  it('caches an active answer when asked, never past the token expiry', async () => {
    const verify = introspectionVerifier({ endpoint: `${as.issuer}/introspect`, ...as.introspectionClient, cacheTtlMs: 60_000 });
    const target = { resource: url, authorizationServers: [as.issuer] };
    const token = as.opaque({ aud: url, sub: 'ada', exp: inFiveMinutes() });
    const first = await verify(token, undefined as never, target);
    const second = await verify(token, undefined as never, target);
    expect(second).toBe(first);
  });
});
