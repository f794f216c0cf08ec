/**
 * Hostile metadata, authorization servers and redirects: each refused with a
 * McpAuthError that says why, nothing sent to a host it was not meant for,
 * no token in any message.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearerChallenge, parseChallenges } from '../../../src/client/auth/challenge.js';
import { Client, headlessAuthorizer, McpAuthError, oauth, StreamableHttpTransport, type OAuthAuthorizer } from '../../../src/client.js';
import { json, startFakeAs, startFakeMcp, type FakeServer } from './fake.js';

let as: FakeServer;
let mcp: FakeServer;
let elsewhere: FakeServer;

beforeEach(async () => {
  as = await startFakeAs();
  mcp = await startFakeMcp(() => as.url);
  elsewhere = await startFakeAs();
});

afterEach(async () => {
  await Promise.all([as.close(), mcp.close(), elsewhere.close()]);
});

/** Connects through the OAuth client; resolves with the error it failed with (or undefined). */
async function attempt(authorizer: OAuthAuthorizer = headlessAuthorizer(), extra: Partial<Parameters<typeof oauth>[0]> = {}): Promise<McpAuthError | undefined> {
  const client = new Client({ clientInfo: { name: 'hostile', version: '1.0.0' }, protocolVersion: '2025-11-25' });
  try {
    await client.connect(new StreamableHttpTransport(`${mcp.url}/mcp`, { auth: oauth({ authorizer, ...extra }) }));
    await client.listTools();
    await client.close();
    return undefined;
  } catch (error) {
    await client.close();
    if (!(error instanceof McpAuthError)) throw error;
    return error;
  }
}

const tokenRequests = (): number => as.seen.filter((r) => r.path === '/token').length;
const authorizeRequests = (): number => as.seen.filter((r) => r.path === '/authorize').length;

describe('the OAuth client against hostile servers', () => {
  it('the baseline works: discovery, registration, authorize, token, the call (so each refusal below is the check, not a broken setup)', async () => {
    expect(await attempt()).toBeUndefined();
    expect(tokenRequests()).toBe(1);
    // The token went only to the MCP server.
    expect(as.seen.some((r) => r.authorization?.startsWith('Bearer') === true)).toBe(false);
    expect(mcp.seen.filter((r) => r.authorization?.startsWith('Bearer good') === true).length).toBeGreaterThan(0);
  });

  it('wrong issuer in the metadata: refused before any endpoint of it is used', async () => {
    as.routes.set('/.well-known/oauth-authorization-server', (_req, _body, res) =>
      json(res, 200, { issuer: elsewhere.url, authorization_endpoint: `${elsewhere.url}/authorize`, token_endpoint: `${elsewhere.url}/token`, code_challenge_methods_supported: ['S256'] }),
    );
    const error = await attempt();
    expect(error?.kind).toBe('issuer_mismatch');
    expect(error?.message).toContain(`names issuer ${elsewhere.url}/, not ${as.url}`);
    expect(elsewhere.seen).toEqual([]);
  });

  it('protected resource metadata for another resource: refused, the authorization server never contacted', async () => {
    mcp.routes.set('/.well-known/oauth-protected-resource/mcp', (_req, _body, res) => json(res, 200, { resource: 'https://evil.example.com/mcp', authorization_servers: [as.url] }));
    const error = await attempt();
    expect(error?.kind).toBe('resource_mismatch');
    expect(error?.message).toContain('describes another resource (https://evil.example.com/mcp)');
    expect(as.seen).toEqual([]);
  });

  it('resource_metadata on another origin: refused, that origin never contacted', async () => {
    mcp.routes.set('/mcp', (_req, _body, res) => json(res, 401, {}, { 'www-authenticate': `Bearer resource_metadata="${elsewhere.url}/.well-known/oauth-protected-resource"` }));
    const error = await attempt();
    expect(error?.kind).toBe('discovery');
    expect(error?.message).toContain(`names resource metadata on another origin (${elsewhere.url})`);
    expect(elsewhere.seen).toEqual([]);
  });

  it('oversized metadata: refused at the byte limit, whether or not Content-Length says so', async () => {
    const big = JSON.stringify({ issuer: as.url, token_endpoint: `${as.url}/token`, padding: 'x'.repeat(300 * 1024) });
    as.routes.set('/.well-known/oauth-authorization-server', (_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(big.length) }).end(big));
    expect((await attempt())?.message).toMatch(/is \d+ bytes, more than the 262144 allowed \(maxMetadataBytes\)/);
    as.routes.set('/.well-known/oauth-authorization-server', (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.end(big);
    });
    expect((await attempt())?.message).toContain('longer than the 262144 bytes allowed');
    expect(tokenRequests()).toBe(0);
  });

  it('malformed metadata: not JSON, wrong types, a plain-http endpoint — each named', async () => {
    const cases: [unknown, string][] = [
      ['not json', 'is not a JSON object'],
      [{ issuer: '', token_endpoint: 5 }, 'names issuer "", not'],
      [{ token_endpoint: 5 }, 'names issuer no issuer'],
      [{ issuer: '@', token_endpoint: 5 }, 'names issuer'],
    ];
    for (const [body, message] of cases) {
      as.routes.set('/.well-known/oauth-authorization-server', (_req, _body, res) => (typeof body === 'string' ? res.writeHead(200).end(body) : json(res, 200, body)));
      expect((await attempt())?.message).toContain(message);
    }
    as.routes.set('/.well-known/oauth-authorization-server', (_req, _body, res) => json(res, 200, { issuer: as.url, token_endpoint: 42 }));
    expect((await attempt())?.message).toContain('"token_endpoint" must be a URL string');
    as.routes.set('/.well-known/oauth-authorization-server', (_req, _body, res) => json(res, 200, { issuer: as.url, token_endpoint: 'http://as.example.com/token', code_challenge_methods_supported: ['S256'] }));
    expect((await attempt())?.message).toContain('"token_endpoint" must be an https URL (http only on loopback)');
    as.routes.set('/.well-known/oauth-authorization-server', (_req, _body, res) => json(res, 200, { issuer: as.url, token_endpoint: `${as.url}/token`, authorization_endpoint: `${as.url}/authorize`, scopes_supported: 'all' }));
    expect((await attempt())?.message).toContain('"scopes_supported" must be an array of at most 256 strings');
    expect(tokenRequests()).toBe(0);
  });

  it('no S256 in code_challenge_methods_supported: the flow is not started', async () => {
    as.routes.set('/.well-known/oauth-authorization-server', (_req, _body, res) =>
      json(res, 200, { issuer: as.url, authorization_endpoint: `${as.url}/authorize`, token_endpoint: `${as.url}/token`, registration_endpoint: `${as.url}/register` }),
    );
    const error = await attempt();
    expect(error?.message).toContain('does not list S256 in code_challenge_methods_supported');
    expect(authorizeRequests()).toBe(0);
  });

  it('a redirect on metadata is not followed (a loop or another host alike)', async () => {
    as.routes.set('/.well-known/oauth-authorization-server', (_req, _body, res) => res.writeHead(302, { location: `${elsewhere.url}/.well-known/oauth-authorization-server?x=secret` }).end());
    const error = await attempt();
    expect(error?.message).toContain(`redirecting to ${elsewhere.url}/.well-known/oauth-authorization-server; redirects are not followed`);
    expect(error?.message).not.toContain('secret');
    expect(elsewhere.seen).toEqual([]);
  });

  it('a redirect loop at the authorization endpoint: the headless authorizer gives up after its limit', async () => {
    as.routes.set('/authorize', (_req, _body, res) => res.writeHead(302, { location: `${as.url}/authorize` }).end());
    const error = await attempt(headlessAuthorizer({ maxRedirects: 3 }));
    expect(error?.kind).toBe('denied');
    expect(error?.message).toContain('more than 3 redirects without reaching the redirect URI');
    expect(authorizeRequests()).toBe(4);
  });

  it('the authorization endpoint redirecting to another origin: not followed', async () => {
    as.routes.set('/authorize', (_req, _body, res) => res.writeHead(302, { location: `${elsewhere.url}/login` }).end());
    expect((await attempt())?.message).toContain(`redirected to another origin (${elsewhere.url})`);
    expect(elsewhere.seen).toEqual([]);
  });

  it('an authorization response with a wrong iss, or a wrong state: the code is not exchanged', async () => {
    const answer = (mutate: (back: URL) => void): OAuthAuthorizer => ({
      redirectUri: () => 'http://127.0.0.1/callback',
      authorize: (url) => {
        const back = new URL('http://127.0.0.1/callback');
        back.searchParams.set('code', 'c');
        back.searchParams.set('state', url.searchParams.get('state')!);
        back.searchParams.set('iss', as.url);
        mutate(back);
        return Promise.resolve(back);
      },
    });
    expect((await attempt(answer((b) => b.searchParams.set('iss', `${as.url}/`))))?.kind).toBe('issuer_mismatch');
    expect((await attempt(answer((b) => b.searchParams.delete('iss'))))?.message).toContain('advertises the iss response parameter but the response has none');
    expect((await attempt(answer((b) => b.searchParams.set('state', 'forged'))))?.kind).toBe('state_mismatch');
    expect(tokenRequests()).toBe(0);
  });

  it('an authorization server that never grants the scope asked: one retry per request, re-asking bounded by maxStepUps', async () => {
    await Promise.all([as.close(), mcp.close()]);
    as = await startFakeAs({ grantedScope: () => 'mcp:read' });
    mcp = await startFakeMcp(() => as.url, { needScope: 'mcp:admin' });
    const client = new Client({ clientInfo: { name: 'hostile', version: '1.0.0' }, protocolVersion: '2025-11-25' });
    await client.connect(new StreamableHttpTransport(`${mcp.url}/mcp`, { auth: oauth({ authorizer: headlessAuthorizer() }) }));
    const errors: unknown[] = [];
    for (let i = 0; i < 5; i++) errors.push(await client.listTools().then(() => undefined, (e: unknown) => e));
    await client.close();
    // The retried request's 403 is the answer (one retry per request) …
    expect(errors[0]).toMatchObject({ name: 'McpTransportError', kind: 'unauthorized', status: 403 });
    // … a scope asked for the first time is a step-up; asked again, it counts, and after maxStepUps the provider stops.
    expect(errors.map((e) => (e as { kind?: string }).kind)).toEqual(['unauthorized', 'unauthorized', 'unauthorized', 'insufficient_scope', 'insufficient_scope']);
    // initialize's 401 authorized once; the first 403 for mcp:admin is a step-up, the next two re-ask it.
    expect(errors[4]).toBeInstanceOf(McpAuthError);
    expect((errors[4] as McpAuthError).kind).toBe('insufficient_scope');
    expect((errors[4] as McpAuthError).message).toContain('insufficient_scope for mcp:admin again after 2 step-ups asking for it (maxStepUps); giving up');
    expect(authorizeRequests()).toBe(4);
    for (const error of errors) expect(String((error as Error).message)).not.toContain('good_');
  });

  it('a token endpoint error: its code and description, never the code or verifier sent', async () => {
    as.routes.set('/token', (_req, _body, res) => json(res, 400, { error: 'invalid_grant', error_description: 'the code expired' }));
    const error = await attempt();
    expect(error?.kind).toBe('token');
    expect(error?.oauthError).toBe('invalid_grant');
    expect(error?.message).toContain('refused the authorization_code grant (HTTP 400, invalid_grant): the code expired');
    const sent = new URLSearchParams(as.seen.find((r) => r.path === '/token')!.body);
    expect(error?.message).not.toContain(sent.get('code_verifier'));
    expect(error?.message).not.toContain('the-code');
  });

  it('misspelt options name the right key', () => {
    expect(() => oauth({ authorizer: headlessAuthorizer(), scope: ['a'] } as never)).toThrow('unknown option `scope` in oauth(options) — did you mean `scopes`?');
    expect(() => headlessAuthorizer({ redirectUrl: 'x' } as never)).toThrow('did you mean `redirectUri`?');
    expect(() => oauth({} as never)).toThrow('options.authorizer is required');
  });
});

describe('WWW-Authenticate parsing', () => {
  it('reads the Bearer challenge among others, quoted and token values', () => {
    expect(bearerChallenge('DPoP algs="ES256", Bearer realm="x", scope="a b", resource_metadata="https://m/.well-known/x", error=insufficient_scope')).toEqual({
      resourceMetadata: 'https://m/.well-known/x',
      scope: 'a b',
      error: 'insufficient_scope',
    });
    expect(bearerChallenge('Basic realm="x"')).toEqual({});
  });

  it('never throws on any input, and reads at most 8 KiB of it', () => {
    fc.assert(fc.property(fc.string({ maxLength: 2000 }), (header) => void parseChallenges(header)));
    fc.assert(fc.property(fc.array(fc.constantFrom('Bearer', ' ', ',', '=', '"', '\\', 'scope', 'x'), { maxLength: 400 }), (parts) => void bearerChallenge(parts.join(''))));
    expect(parseChallenges(`Bearer scope="${'a'.repeat(100_000)}`).get('bearer')?.get('scope')?.length).toBeLessThan(8192);
  });
});
