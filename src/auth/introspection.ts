const INTROSPECTION_VERIFIER_KEYS = keysOf<IntrospectionVerifierOptions>({ endpoint: true, clientId: true, clientSecret: true, headers: true, audience: true, allowMissingAudience: true, cacheTtlMs: true, cacheMaxEntries: true, fetchTimeoutMs: true });

/**
 * A TokenVerifier for opaque tokens: asks the authorization server's RFC 7662
 * introspection endpoint. The answer must be `active`, name this resource in
 * `aud` (RFC 8707), come from a trusted issuer when it names one, and not be
 * expired. Answers may be cached briefly (never past the token's expiry).
 */
import { createHash } from 'node:crypto';
import { principalFromClaims } from './jwt-claims.js';
import { sameResource } from '../transports/http/auth/resource.js';
import { InvalidTokenError, type Principal, type TokenVerifier, type VerifyTarget } from '../transports/http/auth/types.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export interface IntrospectionVerifierOptions {
  /** The introspection endpoint URL (the AS metadata's `introspection_endpoint`). */
  endpoint: string;
  /** Client credentials of this resource server at the AS (HTTP Basic, RFC 7662 §2.1). */
  clientId?: string;
  clientSecret?: string;
  /** Other headers to send (e.g. a bearer token of the resource server's own). */
  headers?: Readonly<Record<string, string>>;
  /** The audience the answer must name (default: the `auth` option's `resource`). */
  audience?: string;
  /** Accept answers without `aud` (default false: the spec asks the server to check the audience). */
  allowMissingAudience?: boolean;
  /** Keep an active answer this long, in ms (default 0: ask every time; revocation is seen at once). */
  cacheTtlMs?: number;
  /** Most cached answers (default 10,000). */
  cacheMaxEntries?: number;
  /** How long the endpoint may take, in ms (default 5,000). */
  fetchTimeoutMs?: number;
}

export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  refuseUnknownKeys(options, INTROSPECTION_VERIFIER_KEYS, 'introspectionVerifier() options');
  if (typeof options?.endpoint !== 'string' || !URL.canParse(options.endpoint)) {
    throw new TypeError('introspectionVerifier: endpoint must be the absolute URL of the introspection endpoint');
  }
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
    ...options.headers,
  };
  if (options.clientId !== undefined) {
    const basic = `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret ?? '')}`;
    headers['authorization'] = `Basic ${Buffer.from(basic).toString('base64')}`;
  }
  const ttl = options.cacheTtlMs ?? 0;
  const maxEntries = options.cacheMaxEntries ?? 10_000;
  const cache = new Map<string, { principal: Principal; until: number }>();

  return async (token: string, _request: unknown, target: VerifyTarget): Promise<Principal> => {
    const key = ttl > 0 ? createHash('sha256').update(token).digest('base64url') : '';
    const hit = ttl > 0 ? cache.get(key) : undefined;
    if (hit !== undefined && hit.until > Date.now()) return hit.principal;

    const response = await fetch(options.endpoint, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      signal: AbortSignal.timeout(options.fetchTimeoutMs ?? 5_000),
      redirect: 'error',
    });
    // Not the token's fault: 503 for the caller, who may retry.
    if (!response.ok) throw new Error(`The introspection endpoint answered ${response.status}`);
    const answer = (await response.json()) as Record<string, unknown>;
    const principal = check(answer, options, target);

    if (ttl > 0) {
      const until = Math.min(Date.now() + ttl, (principal.expiresAt ?? Infinity) * 1000);
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      cache.set(key, { principal, until });
    }
    return principal;
  };
}

function check(answer: Record<string, unknown>, options: IntrospectionVerifierOptions, target: VerifyTarget): Principal {
  if (answer['active'] !== true) throw new InvalidTokenError('the access token is not active (revoked, expired or unknown)');
  const issuer = answer['iss'];
  if (issuer !== undefined && (typeof issuer !== 'string' || !target.authorizationServers.includes(issuer))) {
    throw new InvalidTokenError('the access token was not issued by a trusted authorization server');
  }
  const aud = answer['aud'];
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  const audience = options.audience ?? target.resource;
  if (aud === undefined ? options.allowMissingAudience !== true : !audiences.some((a) => typeof a === 'string' && sameResource(a, audience))) {
    throw new InvalidTokenError('the access token was not issued for this server (its audience does not name this resource)');
  }
  const exp = answer['exp'];
  if (typeof exp === 'number' && exp * 1000 <= Date.now()) throw new InvalidTokenError('the access token has expired');
  return principalFromClaims(answer);
}
