const JWT_VERIFIER_KEYS = keysOf<JwtVerifierOptions>({ issuers: true, audience: true, jwksUri: true, algorithms: true, clockToleranceSeconds: true, typ: true, jwksCacheMaxAgeMs: true, fetchTimeoutMs: true, cacheMaxEntries: true });

/**
 * A TokenVerifier for JWT access tokens (RFC 9068) signed by the authorization
 * server: keys from its JWKS (fetched once, cached, refetched for an unknown
 * `kid`), issuer among the trusted ones, audience naming this resource
 * (RFC 8707), `exp` required with a bounded clock skew, and only the listed
 * algorithms. `jose` (>= 6) is an optional peer dependency, loaded on first use.
 */
import { createHash } from 'node:crypto';
import type * as JoseModule from 'jose';
import { discoverJwksUri } from './discovery.js';
import { sameResource } from '../transports/http/auth/resource.js';
import { principalFromClaims } from './jwt-claims.js';
import { InvalidTokenError, type Principal, type TokenVerifier, type VerifyTarget } from '../transports/http/auth/types.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

type Jose = typeof JoseModule;
type KeySet = ReturnType<Jose['createRemoteJWKSet']>;

export interface JwtVerifierOptions {
  /** Trusted issuers (default: the `auth` option's `authorizationServers`). */
  issuers?: readonly string[];
  /** The audience tokens must name (default: the `auth` option's `resource`). */
  audience?: string;
  /**
   * Where the signing keys are. Default: the `jwks_uri` of the issuer's RFC 8414
   * metadata (`/.well-known/oauth-authorization-server`, then OpenID discovery).
   * With several issuers, a record from issuer to JWKS URL.
   */
  jwksUri?: string | Readonly<Record<string, string>>;
  /** Accepted signature algorithms (default RS256, ES256). `none` and HMAC are refused. */
  algorithms?: readonly string[];
  /** Clock skew tolerated on `exp`/`nbf`/`iat`, in seconds (default 30, at most 300). */
  clockToleranceSeconds?: number;
  /** Expected `typ` header (e.g. `at+jwt`, RFC 9068); default: not checked. */
  typ?: string;
  /** How long fetched keys are used before being refetched, in ms (default 10 minutes). */
  jwksCacheMaxAgeMs?: number;
  /** How long a JWKS or metadata fetch may take, in ms (default 5,000). */
  fetchTimeoutMs?: number;
  /**
   * Verified tokens remembered (by digest) until their `exp`, so a client's next
   * request skips the signature check: most entries (default 1,000; 0 turns it off).
   */
  cacheMaxEntries?: number;
}

const DEFAULT_ALGORITHMS = ['RS256', 'ES256'];
const ASYMMETRIC = /^(?:RS|PS|ES)(?:256|384|512)$|^ES256K$|^EdDSA$|^Ed25519$/;

let josePromise: Promise<Jose> | undefined;

function loadJose(): Promise<Jose> {
  josePromise ??= import('jose').catch((error: unknown) => {
    josePromise = undefined;
    throw new Error('mcpkit/auth: jwtVerifier needs the optional peer dependency "jose" (>= 6): npm install jose', { cause: error });
  });
  return josePromise;
}

export function jwtVerifier(options: JwtVerifierOptions = {}): TokenVerifier {
  refuseUnknownKeys(options, JWT_VERIFIER_KEYS, 'jwtVerifier() options');
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  if (algorithms.length === 0) throw new TypeError('jwtVerifier: algorithms must list at least one algorithm');
  for (const alg of algorithms) {
    if (!ASYMMETRIC.test(alg)) throw new TypeError(`jwtVerifier: algorithm "${alg}" is not allowed (only asymmetric signatures; never "none" or HMAC)`);
  }
  const skew = options.clockToleranceSeconds ?? 30;
  if (!(skew >= 0 && skew <= 300)) throw new RangeError(`jwtVerifier: clockToleranceSeconds must be between 0 and 300, got ${skew}`);
  const timeoutMs = options.fetchTimeoutMs ?? 5_000;
  const keySets = new Map<string, Promise<KeySet>>();
  const verified = new VerifiedCache(options.cacheMaxEntries ?? 1_000);

  const keysFor = (issuer: string): Promise<KeySet> => {
    let keys = keySets.get(issuer);
    if (keys === undefined) {
      keys = (async () => {
        const jose = await loadJose();
        const configured = typeof options.jwksUri === 'string' ? options.jwksUri : options.jwksUri?.[issuer];
        const uri = configured ?? (await discoverJwksUri(issuer, timeoutMs));
        return jose.createRemoteJWKSet(new URL(uri), {
          cacheMaxAge: options.jwksCacheMaxAgeMs ?? 600_000,
          timeoutDuration: timeoutMs,
        });
      })();
      // A failed discovery is retried by the next request rather than remembered.
      keys.catch(() => keySets.delete(issuer));
      keySets.set(issuer, keys);
    }
    return keys;
  };

  return async (token: string, _request: unknown, target: VerifyTarget): Promise<Principal> => {
    const jose = await loadJose();
    const issuers = options.issuers ?? target.authorizationServers;
    const audience = options.audience ?? target.resource;
    const cacheKey = verified.enabled ? verified.key(audience, token) : '';
    const hit = verified.enabled ? verified.get(cacheKey) : undefined;
    if (hit !== undefined) return hit;
    let issuer: unknown;
    try {
      issuer = jose.decodeJwt(token).iss;
    } catch {
      throw new InvalidTokenError('the access token is not a well-formed JWT');
    }
    // Checked before any key is fetched: an unknown issuer costs nothing.
    if (typeof issuer !== 'string' || !issuers.includes(issuer)) throw new InvalidTokenError('the access token was not issued by a trusted authorization server');
    const keys = await keysFor(issuer);
    let payload: Record<string, unknown>;
    try {
      const verified = await jose.jwtVerify(token, keys, {
        issuer,
        algorithms,
        clockTolerance: skew,
        requiredClaims: ['exp'],
        ...(options.typ === undefined ? {} : { typ: options.typ }),
      });
      payload = verified.payload;
    } catch (error) {
      throw asInvalidToken(error);
    }
    const aud = payload['aud'];
    const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
    if (!audiences.some((a) => typeof a === 'string' && sameResource(a, audience))) {
      throw new InvalidTokenError('the access token was not issued for this server (its audience does not name this resource)');
    }
    const principal = principalFromClaims(payload);
    if (verified.enabled && principal.expiresAt !== undefined) verified.set(cacheKey, principal, principal.expiresAt * 1000);
    return principal;
  };
}

/** Tokens already verified, by a digest of audience and token, until their expiry; the oldest goes first. */
class VerifiedCache {
  readonly #entries = new Map<string, { principal: Principal; until: number }>();

  constructor(private readonly maxEntries: number) {}

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  key(audience: string, token: string): string {
    return createHash('sha256').update(audience).update(' ').update(token).digest('base64url');
  }

  get(key: string): Principal | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > Date.now()) return entry.principal;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, principal: Principal, until: number): void {
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { principal, until });
  }
}

/** jose's verdicts on the token become 401; failures to reach or read the JWKS stay errors (503). */
function asInvalidToken(error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JWKS_INVALID' || typeof code !== 'string') return error instanceof Error ? error : new Error(String(error));
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return new InvalidTokenError('the access token has expired');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return new InvalidTokenError(`the access token's claims are not acceptable (${(error as { claim?: string }).claim ?? 'claim'})`);
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return new InvalidTokenError('the access token is signed with an algorithm this server does not accept');
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return new InvalidTokenError('the access token is not signed by a key of the authorization server');
    default:
      return new InvalidTokenError('the access token is invalid');
  }
}
