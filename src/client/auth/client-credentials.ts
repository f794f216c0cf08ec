/**
 * Machine identities (the OAuth client credentials extension): the client
 * authenticates with a secret (client_secret_basic, or _post when that is all
 * the server lists) or a signed JWT (private_key_jwt, RFC 7523; needs the
 * optional peer dependency `jose`), and asks the token endpoint directly —
 * no user, no redirect.
 */
import type * as JoseModule from 'jose';
import type { CryptoKey, JWK, KeyObject } from 'jose';
import type { AuthServerMetadata } from './discovery.js';
import { McpAuthError } from './errors.js';
import { OAuthClientProvider, type Grant, type OAuthCommonOptions } from './flow.js';
import { randomToken } from './pkce.js';
import { MemoryTokenStore } from './store.js';
import { keysOf, refuseUnknownKeys } from '../../util/known-keys.js';

const KEYS = keysOf<ClientCredentialsOptions>({ clientId: true, clientSecret: true, privateKey: true, algorithm: true, scopes: true, store: true, fetch: true, maxMetadataBytes: true, timeoutMs: true });
import { basicCredentials, requestTokens, type TokenRequest } from './tokens.js';

export interface ClientCredentialsOptions extends OAuthCommonOptions {
  clientId: string;
  /** For client_secret_basic / client_secret_post. */
  clientSecret?: string;
  /** For private_key_jwt: a PKCS#8 PEM string, a private JWK (an object with `kty`), or a CryptoKey / KeyObject. Typed loosely so that mcpkit/client's types need no `jose`. */
  privateKey?: string | object;
  /** The JWS algorithm of the assertion (default: the key's JWK `alg`, else ES256). */
  algorithm?: string;
}

type Jose = typeof JoseModule;
let josePromise: Promise<Jose> | undefined;
function loadJose(): Promise<Jose> {
  josePromise ??= import('jose').catch((error: unknown) => {
    josePromise = undefined;
    throw new McpAuthError('config', 'clientCredentials({ privateKey }) needs the optional peer dependency "jose" (>= 6): npm install jose', { cause: error });
  });
  return josePromise;
}

function authentication(options: ClientCredentialsOptions): (as: AuthServerMetadata) => Promise<TokenRequest['authenticate']> {
  return async (as) => {
    const supported = as.tokenEndpointAuthMethodsSupported;
    if (options.privateKey !== undefined) {
      const jose = await loadJose();
      const given = options.privateKey;
      const jwk = typeof given === 'object' && 'kty' in given ? (given as JWK) : undefined;
      const alg = options.algorithm ?? (typeof jwk?.alg === 'string' ? jwk.alg : 'ES256');
      let key: CryptoKey | KeyObject | Uint8Array;
      try {
        key = typeof given === 'string' ? await jose.importPKCS8(given, alg) : jwk !== undefined ? await jose.importJWK(jwk, alg) : (given as CryptoKey | KeyObject);
      } catch (error) {
        throw new McpAuthError('config', `clientCredentials: the privateKey cannot be used with ${alg}: ${(error as Error).message}`, { cause: error });
      }
      return async (params) => {
        const assertion = await new jose.SignJWT({})
          .setProtectedHeader({ alg, typ: 'JWT' })
          .setIssuer(options.clientId)
          .setSubject(options.clientId)
          .setAudience(as.issuer)
          .setJti(randomToken(16))
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(key);
        params.set('client_id', options.clientId);
        params.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
        params.set('client_assertion', assertion);
      };
    }
    const secret = options.clientSecret!;
    const post = supported !== undefined && !supported.includes('client_secret_basic') && supported.includes('client_secret_post');
    return (params, headers) => {
      if (post) {
        params.set('client_id', options.clientId);
        params.set('client_secret', secret);
      } else {
        headers['authorization'] = basicCredentials(options.clientId, secret);
      }
    };
  };
}

/** The provider for service-to-service calls: `new StreamableHttpTransport(url, { auth: clientCredentials({ clientId, clientSecret }) })`. */
export function clientCredentials(options: ClientCredentialsOptions): OAuthClientProvider {
  refuseUnknownKeys(options, KEYS, 'clientCredentials(options)', (message) => new McpAuthError('config', message));
  if (typeof options?.clientId !== 'string' || options.clientId === '') throw new McpAuthError('config', 'clientCredentials(options): options.clientId is required');
  if ((options.clientSecret === undefined) === (options.privateKey === undefined)) {
    throw new McpAuthError('config', 'clientCredentials(options): give exactly one of clientSecret (client_secret_basic/post) and privateKey (private_key_jwt)');
  }
  const authenticate = authentication(options);
  const grant: Grant = {
    refreshable: false,
    async obtain(as, resource, scopes, ctx) {
      if (as.grantTypesSupported !== undefined && !as.grantTypesSupported.includes('client_credentials')) {
        throw new McpAuthError('token', `the authorization server ${as.issuer} does not list client_credentials in grant_types_supported`);
      }
      const params: Record<string, string> = { grant_type: 'client_credentials', resource };
      if (scopes.length > 0) params['scope'] = scopes.join(' ');
      return requestTokens(as, { params, authenticate: await authenticate(as), requestedScopes: scopes, resource }, ctx);
    },
  };
  return new OAuthClientProvider(grant, { ...options, store: options.store ?? new MemoryTokenStore() });
}
