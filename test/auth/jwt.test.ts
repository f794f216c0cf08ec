/** The bundled JWT verifier against the test authorization server: what it accepts and every way it refuses. */
import { UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier } from '../../src/auth.js';
import { answer, bearer, challengeParams, post, protectedServer, rpc, startProtected, type Fixture } from './support.js';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startProtected();
});
afterAll(() => fixture.close());

/** tools/list on the stateless 2026-07-28 path: one request, no session. */
function list(headers: Record<string, string>): Promise<Response> {
  return post(fixture.mcp.url, rpc(1, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } } }), {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/list',
    ...headers,
  });
}

async function refused(token: string, description: RegExp): Promise<void> {
  const response = await list(bearer(token));
  expect(response.status).toBe(401);
  const params = challengeParams(response.headers.get('www-authenticate'));
  expect(params.error).toBe('invalid_token');
  expect(params.error_description).toMatch(description);
  expect(params.resource_metadata).toBe(`${new URL(fixture.mcp.url).origin}/.well-known/oauth-protected-resource/mcp`);
  await response.text();
}

describe('accepted tokens', () => {
  it('accepts an RS256 and an ES256 token whose audience is this resource', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const response = await list(bearer(await fixture.token(undefined, { alg })));
      expect(response.status).toBe(200);
      expect((await answer(response)).result.tools.length).toBeGreaterThan(0);
    }
  });

  it('accepts an audience list that names the resource, in another case or with a trailing slash', async () => {
    const url = new URL(fixture.mcp.url);
    const variants = [[`https://other.example`, fixture.mcp.url], `${fixture.mcp.url}/`, `HTTP://127.0.0.1:${url.port}/mcp`];
    for (const aud of variants) {
      const response = await list(bearer(await fixture.as.token({ aud })));
      expect(response.status, JSON.stringify(aud)).toBe(200);
      await response.text();
    }
  });
});

describe('refused tokens: 401 invalid_token', () => {
  it('refuses a token for another resource, or without an audience', async () => {
    await refused(await fixture.as.token({ aud: 'https://other.example/mcp' }), /not issued for this server/);
    await refused(await fixture.as.token({ aud: `${new URL(fixture.mcp.url).origin}/other` }), /not issued for this server/);
    await refused(await fixture.as.token({ aud: undefined }), /not issued for this server/);
  });

  it('refuses an expired token and one without exp', async () => {
    await refused(await fixture.token(undefined, { expiresIn: -120 }), /expired/);
    await refused(await fixture.token(undefined, { expiresIn: null }), /claims are not acceptable \(exp\)/);
  });

  it('tolerates a bounded clock skew only', async () => {
    const response = await list(bearer(await fixture.token(undefined, { expiresIn: -5 })));
    expect(response.status).toBe(200);
    await response.text();
    expect(() => jwtVerifier({ clockToleranceSeconds: 3600 })).toThrow(/between 0 and 300/);
  });

  it('refuses a token signed by a key the JWKS does not publish, even with a trusted kid', async () => {
    await refused(await fixture.token(undefined, { untrustedKey: true }), /not signed by a key of the authorization server/);
  });

  it('refuses a token from an issuer that is not trusted', async () => {
    await refused(await fixture.token(undefined, { iss: 'http://127.0.0.1:1/evil' }), /not issued by a trusted authorization server/);
  });

  it('refuses alg none, and garbage', async () => {
    const unsigned = new UnsecuredJWT({ scope: 'files:write' })
      .setIssuer(fixture.as.issuer)
      .setAudience(fixture.mcp.url)
      .setSubject('user-1')
      .setExpirationTime('5m')
      .encode();
    await refused(unsigned, /algorithm this server does not accept|invalid/);
    await refused('not.a.jwt', /not a well-formed JWT/);
    expect(() => jwtVerifier({ algorithms: ['none'] })).toThrow(/not allowed/);
    expect(() => jwtVerifier({ algorithms: ['HS256'] })).toThrow(/not allowed/);
  });

  it('refuses an algorithm outside the allow-list', async () => {
    const strict = await startProtected({ verify: jwtVerifier({ algorithms: ['ES256'] }) });
    try {
      const response = await post(strict.mcp.url, rpc(1, 'ping'), bearer(await strict.token(undefined, { alg: 'RS256' })));
      expect(response.status).toBe(401);
      expect(challengeParams(response.headers.get('www-authenticate')).error_description).toMatch(/algorithm/);
      const ok = await post(strict.mcp.url, rpc(1, 'ping'), bearer(await strict.token(undefined, { alg: 'ES256' })));
      expect(ok.status).toBe(400); // past auth: a legacy request without a session
    } finally {
      await strict.close();
    }
  });
});

describe('the verified-token cache', () => {
  it('remembers a verified token until its expiry, per audience, and can be turned off', async () => {
    const target = { resource: fixture.mcp.url, authorizationServers: [fixture.as.issuer] };
    const token = await fixture.token('files:read');
    const cached = jwtVerifier();
    const first = await cached(token, undefined as never, target);
    expect(await cached(token, undefined as never, target)).toBe(first);
    // Another audience is checked again (and refused).
    await expect(cached(token, undefined as never, { ...target, resource: 'https://other.example/mcp' })).rejects.toThrow(/not issued for this server/);
    const uncached = jwtVerifier({ cacheMaxEntries: 0 });
    const a = await uncached(token, undefined as never, target);
    expect(await uncached(token, undefined as never, target)).not.toBe(a);
    expect(await uncached(token, undefined as never, target)).toEqual(a);
  });
});

describe('when the authorization server cannot be reached', () => {
  it('answers 503 (not 401: the token may be fine) and recovers by itself', async () => {
    // The cause goes to the server's logger (asserted here, so it is not printed).
    const logged: unknown[][] = [];
    const server = protectedServer({ error: (...args: unknown[]) => void logged.push(args) });
    const offline = await startProtected({ server, verify: jwtVerifier({ jwksUri: 'http://127.0.0.1:1/jwks', fetchTimeoutMs: 2_000 }) });
    try {
      const response = await post(offline.mcp.url, rpc(1, 'ping'), bearer(await offline.token()));
      expect(response.status).toBe(503);
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect((await answer(response)).error.message).toMatch(/could not be verified right now/);
      expect(logged).toHaveLength(1);
      expect(String(logged[0]![0])).toMatch(/auth verifier failed/);
      expect(String(logged[0]![1])).toMatch(/fetch failed/);
    } finally {
      await offline.close();
    }
  });
});
