/**
 * A real OAuth 2.1 authorization server for the tests, on 127.0.0.1: RFC 8414
 * metadata, JWKS, dynamic client registration, authorization code + PKCE
 * (approved at once, as a consenting user would), refresh, RFC 7662
 * introspection. Tokens are JWTs signed RS256 or ES256 with chosen claims.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

export interface TokenClaims {
  aud?: string | string[] | undefined;
  iss?: string;
  sub?: string;
  scope?: string;
  /** Seconds from now (negative: already expired); `null` leaves `exp` out. */
  expiresIn?: number | null;
  alg?: 'RS256' | 'ES256';
  /** Sign with a key the JWKS does not publish. */
  untrustedKey?: boolean;
  typ?: string;
  extra?: Record<string, unknown>;
}

export interface TestAuthServer {
  issuer: string;
  /** A signed access token with exactly these claims. */
  token(claims?: TokenClaims): Promise<string>;
  /** An opaque token the introspection endpoint knows. */
  opaque(answer: Record<string, unknown>): string;
  /** The resource-server credentials the introspection endpoint accepts. */
  readonly introspectionClient: { clientId: string; clientSecret: string };
  /** Token requests seen (grant, scope, resource), for assertions. */
  readonly tokenRequests: { grant: string; scope: string | undefined; resource: string | undefined }[];
  /** Restricts what users may be granted (default: whatever is asked). */
  grantable: ((scope: string) => boolean) | undefined;
  close(): Promise<void>;
}

interface Keys {
  key: CryptoKey;
  jwk: JWK;
}

async function keyPair(alg: 'RS256' | 'ES256', kid: string): Promise<Keys> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { key: privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** Key generation is slow (RSA): one set per test process. */
let keySet: Promise<[Keys, Keys, Keys]> | undefined;

export async function startAuthServer(options: { subject?: string } = {}): Promise<TestAuthServer> {
  // The rogue key has the trusted kid: an attacker's key, not in the JWKS.
  keySet ??= Promise.all([keyPair('RS256', 'rs-1'), keyPair('ES256', 'es-1'), keyPair('RS256', 'rs-1')]);
  const [rs, es, rogue] = await keySet;
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, { clientId: string; challenge: string; scope: string | undefined; resource: string | undefined; redirectUri: string }>();
  const refreshTokens = new Map<string, { scope: string | undefined; resource: string | undefined; clientId: string }>();
  const opaqueTokens = new Map<string, Record<string, unknown>>();
  const introspectionClient = { clientId: 'mcp-resource-server', clientSecret: randomBytes(12).toString('hex') };
  const tokenRequests: TestAuthServer['tokenRequests'] = [];
  let issuer = '';

  const sign = async (claims: TokenClaims): Promise<string> => {
    const alg = claims.alg ?? 'RS256';
    const keys = claims.untrustedKey === true ? rogue : alg === 'ES256' ? es : rs;
    const payload: Record<string, unknown> = { ...claims.extra };
    if (claims.scope !== undefined) payload['scope'] = claims.scope;
    let jwt = new SignJWT(payload)
      .setProtectedHeader({ alg, kid: keys.jwk.kid!, typ: claims.typ ?? 'at+jwt' })
      .setIssuer(claims.iss ?? issuer)
      .setSubject(claims.sub ?? options.subject ?? 'user-1')
      .setIssuedAt()
      .setJti(randomBytes(8).toString('hex'));
    if (claims.aud !== undefined) jwt = jwt.setAudience(claims.aud);
    if (claims.expiresIn !== null) jwt = jwt.setExpirationTime(Math.floor(Date.now() / 1000) + (claims.expiresIn ?? 300));
    return jwt.sign(keys.key);
  };

  const state: TestAuthServer = {
    issuer: '',
    token: (claims = {}) => sign(claims),
    opaque(answer) {
      const token = randomBytes(16).toString('base64url');
      opaqueTokens.set(token, answer);
      return token;
    },
    introspectionClient,
    tokenRequests,
    grantable: undefined,
    close: async () => undefined,
  };

  const grant = (scope: string | undefined): string | undefined => {
    if (scope === undefined || state.grantable === undefined) return scope;
    return scope.split(' ').filter((s) => state.grantable!(s)).join(' ');
  };

  const issueTokens = async (clientId: string, scope: string | undefined, resource: string | undefined): Promise<Record<string, unknown>> => {
    const refresh = randomBytes(16).toString('base64url');
    refreshTokens.set(refresh, { scope, resource, clientId });
    const accessToken = await sign({ aud: resource, ...(scope === undefined ? {} : { scope }), extra: { client_id: clientId } });
    return { access_token: accessToken, token_type: 'Bearer', expires_in: 300, refresh_token: refresh, ...(scope === undefined ? {} : { scope }) };
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => send(res, 500, { error: 'server_error' }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', issuer);
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'GET /.well-known/oauth-authorization-server':
        return send(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          jwks_uri: `${issuer}/jwks`,
          introspection_endpoint: `${issuer}/introspect`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          authorization_response_iss_parameter_supported: true,
        });
      case 'GET /jwks':
        return send(res, 200, { keys: [rs.jwk, es.jwk] });
      case 'POST /register': {
        const body = JSON.parse(await text(req)) as { redirect_uris?: string[] };
        const clientId = `client-${randomBytes(6).toString('hex')}`;
        clients.set(clientId, { redirectUris: body.redirect_uris ?? [] });
        return send(res, 201, { ...body, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: 'none' });
      }
      case 'GET /authorize': {
        const q = url.searchParams;
        const clientId = q.get('client_id') ?? '';
        const redirectUri = q.get('redirect_uri') ?? '';
        const client = clients.get(clientId);
        if (client === undefined || !client.redirectUris.includes(redirectUri)) return send(res, 400, { error: 'invalid_request' });
        if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return send(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
        const code = randomBytes(12).toString('base64url');
        codes.set(code, { clientId, challenge: q.get('code_challenge')!, scope: grant(q.get('scope') ?? undefined), resource: q.get('resource') ?? undefined, redirectUri });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        back.searchParams.set('iss', issuer);
        if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
        res.writeHead(302, { location: back.toString() }).end();
        return;
      }
      case 'POST /token': {
        const form = new URLSearchParams(await text(req));
        const grantType = form.get('grant_type') ?? '';
        const resource = form.get('resource') ?? undefined;
        if (grantType === 'authorization_code') {
          const code = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          if (code === undefined || createHash('sha256').update(verifier).digest('base64url') !== code.challenge || code.clientId !== form.get('client_id')) {
            return send(res, 400, { error: 'invalid_grant' });
          }
          tokenRequests.push({ grant: grantType, scope: code.scope, resource: resource ?? code.resource });
          return send(res, 200, await issueTokens(code.clientId, code.scope, resource ?? code.resource));
        }
        if (grantType === 'refresh_token') {
          const old = refreshTokens.get(form.get('refresh_token') ?? '');
          if (old === undefined) return send(res, 400, { error: 'invalid_grant' });
          refreshTokens.delete(form.get('refresh_token') ?? '');
          tokenRequests.push({ grant: grantType, scope: old.scope, resource: resource ?? old.resource });
          return send(res, 200, await issueTokens(old.clientId, old.scope, resource ?? old.resource));
        }
        return send(res, 400, { error: 'unsupported_grant_type' });
      }
      case 'POST /introspect': {
        const expected = `Basic ${Buffer.from(`${introspectionClient.clientId}:${introspectionClient.clientSecret}`).toString('base64')}`;
        if (req.headers['authorization'] !== expected) return send(res, 401, { error: 'invalid_client' });
        const form = new URLSearchParams(await text(req));
        const answer = opaqueTokens.get(form.get('token') ?? '');
        return send(res, 200, answer === undefined ? { active: false } : { active: true, iss: issuer, ...answer });
      }
      default:
        return send(res, 404, { error: 'not_found' });
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.issuer = issuer;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
