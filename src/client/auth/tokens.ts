/**
 * The token endpoint: one form POST (authorization code, refresh, client
 * credentials), the client authenticated as its registration says, the
 * answer bounded and type-checked. Nothing here puts a token, a code or a
 * secret into a message.
 */
import type { AuthServerMetadata } from './discovery.js';
import { McpAuthError } from './errors.js';
import { requestJson, type FetchContext } from './fetch-json.js';
import { base64 } from './pkce.js';
import type { OAuthClientInformation, OAuthTokens } from './store.js';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';

/**
 * How this client authenticates: what its registration says, else the first of
 * basic/post the server lists (RFC 8414's default is basic), none without a secret.
 */
export function chooseAuthMethod(client: OAuthClientInformation, as: AuthServerMetadata): ClientAuthMethod {
  const registered = client.tokenEndpointAuthMethod;
  if (registered === 'client_secret_basic' || registered === 'client_secret_post' || registered === 'none') return registered;
  if (client.clientSecret === undefined) return 'none';
  const supported = as.tokenEndpointAuthMethodsSupported ?? ['client_secret_basic'];
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

/** RFC 6749 §2.3.1: id and secret form-encoded before base64. */
export function basicCredentials(clientId: string, secret: string): string {
  const encode = (v: string): string => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${base64(new TextEncoder().encode(`${encode(clientId)}:${encode(secret)}`))}`;
}

export interface TokenRequest {
  params: Record<string, string>;
  /** Adds client authentication to the params or the headers. */
  authenticate(params: URLSearchParams, headers: Record<string, string>): void | Promise<void>;
  /** The scopes asked, recorded when the answer names none. */
  requestedScopes: string[];
  resource: string;
}

/** Client authentication from a registration (secret methods and `none`). */
export function secretAuthentication(client: OAuthClientInformation, as: AuthServerMetadata): TokenRequest['authenticate'] {
  const method = chooseAuthMethod(client, as);
  return (params, headers) => {
    if (method === 'client_secret_basic' && client.clientSecret !== undefined) {
      headers['authorization'] = basicCredentials(client.clientId, client.clientSecret);
      return;
    }
    params.set('client_id', client.clientId);
    if (method === 'client_secret_post' && client.clientSecret !== undefined) params.set('client_secret', client.clientSecret);
  };
}

export async function requestTokens(as: AuthServerMetadata, request: TokenRequest, ctx: FetchContext): Promise<OAuthTokens> {
  const params = new URLSearchParams(request.params);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  await request.authenticate(params, headers);
  const url = new URL(as.tokenEndpoint);
  const where = `the token endpoint ${url.origin}${url.pathname}`;
  const answer = await requestJson(ctx, url, { method: 'POST', headers, body: params.toString() }, 'token', 'token request');
  const body = answer.body;
  if (answer.status !== 200) {
    const error = typeof body?.['error'] === 'string' ? body['error'].slice(0, 100) : undefined;
    const description = typeof body?.['error_description'] === 'string' ? `: ${body['error_description'].slice(0, 300)}` : '';
    throw new McpAuthError('token', `${where} refused the ${request.params['grant_type']} grant (HTTP ${answer.status}${error === undefined ? '' : `, ${error}`})${description}`, error === undefined ? {} : { oauthError: error });
  }
  if (body === undefined) throw new McpAuthError('token', `${where} answered with a body that is not a JSON object`);
  const accessToken = body['access_token'];
  if (typeof accessToken !== 'string' || accessToken === '' || accessToken.length > 16384 || /[\r\n]/.test(accessToken)) {
    throw new McpAuthError('token', `${where} answered without a usable "access_token"`);
  }
  const tokenType = body['token_type'];
  if (typeof tokenType !== 'string' || !['bearer', 'dpop'].includes(tokenType.toLowerCase())) {
    throw new McpAuthError('token', `${where} answered token_type ${JSON.stringify(String(tokenType).slice(0, 40))}; only Bearer is supported`);
  }
  const refresh = body['refresh_token'];
  const expiresIn = body['expires_in'];
  const scope = body['scope'];
  return {
    accessToken,
    tokenType: tokenType.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer',
    refreshToken: typeof refresh === 'string' && refresh !== '' ? refresh : undefined,
    expiresAt: typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined,
    scopes: typeof scope === 'string' ? scope.split(' ').filter((s) => s !== '') : request.requestedScopes,
    issuer: as.issuer,
    resource: request.resource,
  };
}
