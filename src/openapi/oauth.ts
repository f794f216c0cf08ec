/**
 * The upstream API's own OAuth client credentials (an `oauth2` security scheme with a
 * `clientCredentials` flow): the provider asks the token endpoint for an access token with its
 * client id and secret, keeps it until shortly before it expires, and sends it as the bearer of
 * that scheme. The token request itself is mcpkit/client's (src/client/auth/tokens.ts): bounded,
 * no redirects followed, errors that never carry a secret. Nothing of the MCP caller's is used.
 */
import type { AuthServerMetadata } from '../client/auth/discovery.js';
import { checkUrl } from '../client/auth/discovery.js';
import { basicCredentials, requestTokens } from '../client/auth/tokens.js';
import { OpenApiError } from './errors.js';

export interface OpenApiClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string | (() => string | Promise<string>);
  /** Scopes asked for (default: none, the token endpoint's default). */
  readonly scopes?: readonly string[];
  /**
   * The token endpoint. Default: the flow's `tokenUrl`, used only when it is on the base URL's
   * origin; a token endpoint elsewhere must be named here, so a document cannot pick where the
   * client secret goes.
   */
  readonly tokenUrl?: string;
  /** How the client authenticates at the token endpoint (default `client_secret_basic`). */
  readonly authMethod?: 'client_secret_basic' | 'client_secret_post';
  /** RFC 8707 resource indicator sent with the request (default: none). */
  readonly resource?: string;
}

export const CLIENT_CREDENTIALS_KEYS = ['clientId', 'clientSecret', 'scopes', 'tokenUrl', 'authMethod', 'resource'] as const;

/** Renewed this long before the token's stated expiry. */
const EXPIRY_MARGIN_MS = 30_000;
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

export interface TokenSource {
  /** The current access token, asking the token endpoint when there is none or it is about to expire. */
  token(signal?: AbortSignal): Promise<string>;
  /** Forgets the token (the API answered 401 with it). */
  invalidate(token: string): void;
}

/** The token endpoint for a scheme: the credential's `tokenUrl`, else the flow's when on the API's origin. */
export function tokenEndpoint(scheme: Record<string, unknown>, credential: OpenApiClientCredentials, schemeName: string, base: URL): URL {
  const flows = scheme['flows'];
  const flow = typeof flows === 'object' && flows !== null ? (flows as Record<string, unknown>)['clientCredentials'] : undefined;
  const declared = typeof flow === 'object' && flow !== null ? (flow as Record<string, unknown>)['tokenUrl'] : undefined;
  const where = `credentials.${schemeName}`;
  if (credential.tokenUrl === undefined) {
    if (typeof declared !== 'string') {
      throw new OpenApiError(`${where}: security scheme "${schemeName}" has no flows.clientCredentials.tokenUrl; give tokenUrl with the client credentials`);
    }
    let url: URL;
    try {
      url = new URL(declared, base);
    } catch {
      throw new OpenApiError(`${where}: the document's tokenUrl ${JSON.stringify(declared.slice(0, 200))} is not a URL; give tokenUrl with the client credentials`);
    }
    if (url.origin !== base.origin) {
      throw new OpenApiError(`${where}: the document's tokenUrl is on ${url.origin}, not the API's origin ${base.origin}; give tokenUrl: ${JSON.stringify(url.href)} with the client credentials to confirm the client secret may go there`);
    }
    return checked(url.href, where);
  }
  return checked(credential.tokenUrl, where);
}

function checked(url: string, where: string): URL {
  try {
    return checkUrl(url, 'tokenUrl', where);
  } catch (error) {
    throw new OpenApiError((error as Error).message, undefined, { cause: error });
  }
}

export function clientCredentialsSource(credential: OpenApiClientCredentials, endpoint: URL, fetchFn: typeof fetch, timeoutMs: number): TokenSource {
  const as: AuthServerMetadata = {
    issuer: endpoint.origin,
    authorizationEndpoint: undefined,
    tokenEndpoint: endpoint.href,
    registrationEndpoint: undefined,
    scopesSupported: undefined,
    grantTypesSupported: undefined,
    codeChallengeMethodsSupported: undefined,
    tokenEndpointAuthMethodsSupported: undefined,
    clientIdMetadataDocumentSupported: false,
    issParameterSupported: false,
  };
  let current: { token: string; expiresAt: number } | undefined;
  // One request at a time: concurrent calls wait for the same answer.
  let pending: Promise<string> | undefined;
  const obtain = async (): Promise<string> => {
    const secret = typeof credential.clientSecret === 'function' ? await credential.clientSecret() : credential.clientSecret;
    const params: Record<string, string> = { grant_type: 'client_credentials' };
    if (credential.scopes !== undefined && credential.scopes.length > 0) params['scope'] = credential.scopes.join(' ');
    if (credential.resource !== undefined) params['resource'] = credential.resource;
    const tokens = await requestTokens(
      as,
      {
        params,
        authenticate: (form, headers) => {
          if (credential.authMethod === 'client_secret_post') {
            form.set('client_id', credential.clientId);
            form.set('client_secret', secret);
          } else {
            headers['authorization'] = basicCredentials(credential.clientId, secret);
          }
        },
        requestedScopes: [...(credential.scopes ?? [])],
        resource: credential.resource ?? endpoint.origin,
      },
      // Not the call's signal: the answer serves every call waiting on it, one cancelled call must not void it.
      { fetch: fetchFn, maxBytes: MAX_TOKEN_ANSWER_BYTES, timeoutMs },
    );
    current = { token: tokens.accessToken, expiresAt: tokens.expiresAt === undefined ? Number.POSITIVE_INFINITY : tokens.expiresAt - EXPIRY_MARGIN_MS };
    return tokens.accessToken;
  };
  return {
    async token(signal) {
      if (current !== undefined && Date.now() < current.expiresAt) return current.token;
      pending ??= obtain().finally(() => (pending = undefined));
      if (signal === undefined) return pending;
      if (signal.aborted) throw new Error('cancelled');
      let onAbort = (): void => {};
      const aborted = new Promise<never>((_, reject) => (onAbort = () => reject(new Error('cancelled'))));
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        return await Promise.race([pending, aborted]);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    invalidate(token) {
      if (current?.token === token) current = undefined;
    },
  };
}
