/**
 * Who the client is to an authorization server, in the spec's order: a
 * registration kept from before, pre-registered credentials, a client ID
 * metadata document URL when the server supports them, dynamic client
 * registration (RFC 7591) as the fallback. Registrations are per issuer:
 * credentials from one authorization server are never shown to another.
 */
import type { AuthServerMetadata } from './discovery.js';
import { McpAuthError } from './errors.js';
import { requestJson, type FetchContext } from './fetch-json.js';
import type { OAuthClientInformation, OAuthStore } from './store.js';

export interface PreRegisteredClient {
  clientId: string;
  clientSecret?: string;
  /** Default: what the authorization server supports (basic, then post), `none` without a secret. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
  /** The authorization server these credentials belong to; unset: any. */
  issuer?: string;
}

export interface IdentityOptions {
  preRegistered: PreRegisteredClient | undefined;
  clientMetadataUrl: string | undefined;
  clientName: string;
  applicationType: 'native' | 'web';
  redirectUri: string;
}

export async function resolveClient(as: AuthServerMetadata, options: IdentityOptions, store: OAuthStore, ctx: FetchContext): Promise<OAuthClientInformation> {
  const kept = await store.getClient(as.issuer);
  const fresh = kept !== undefined && (kept.clientSecretExpiresAt === undefined || kept.clientSecretExpiresAt === 0 || kept.clientSecretExpiresAt > Date.now());
  if (fresh && (kept.redirectUri === undefined || kept.redirectUri === options.redirectUri)) return kept;
  const pre = options.preRegistered;
  if (pre !== undefined && (pre.issuer === undefined || pre.issuer === as.issuer)) {
    return { clientId: pre.clientId, clientSecret: pre.clientSecret, tokenEndpointAuthMethod: pre.tokenEndpointAuthMethod };
  }
  if (options.clientMetadataUrl !== undefined && as.clientIdMetadataDocumentSupported) {
    return { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: 'none' };
  }
  if (as.registrationEndpoint === undefined) {
    throw new McpAuthError(
      'registration',
      `the authorization server ${as.issuer} offers no dynamic client registration${options.clientMetadataUrl === undefined ? ' and no client ID metadata document was configured (clientMetadataUrl)' : ' and does not support client ID metadata documents'}: pass preRegistered credentials`,
    );
  }
  const client = await register(as, options, ctx);
  await store.setClient(as.issuer, client);
  return client;
}

async function register(as: AuthServerMetadata, options: IdentityOptions, ctx: FetchContext): Promise<OAuthClientInformation> {
  const supported = as.tokenEndpointAuthMethodsSupported;
  const method = supported === undefined || supported.includes('none') ? 'none' : supported.includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post';
  const metadata: Record<string, unknown> = {
    client_name: options.clientName,
    redirect_uris: [options.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
    application_type: options.applicationType,
  };
  // No `scope`: an authorization server may confine the client to it, and a later step-up would be refused.
  const url = new URL(as.registrationEndpoint!);
  const where = `dynamic client registration at ${url.origin}${url.pathname}`;
  const answer = await requestJson(ctx, url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(metadata) }, 'registration', 'client registration');
  const body = answer.body;
  if (answer.status !== 200 && answer.status !== 201) {
    const error = typeof body?.['error'] === 'string' ? body['error'].slice(0, 100) : undefined;
    const description = typeof body?.['error_description'] === 'string' ? `: ${body['error_description'].slice(0, 300)}` : '';
    throw new McpAuthError('registration', `${where} failed (HTTP ${answer.status}${error === undefined ? '' : `, ${error}`})${description}`, error === undefined ? {} : { oauthError: error });
  }
  const clientId = body?.['client_id'];
  if (typeof clientId !== 'string' || clientId === '' || clientId.length > 2048) throw new McpAuthError('registration', `${where} answered without a "client_id"`);
  const secret = body?.['client_secret'];
  const registeredMethod = body?.['token_endpoint_auth_method'];
  const expires = body?.['client_secret_expires_at'];
  return {
    clientId,
    clientSecret: typeof secret === 'string' && secret !== '' ? secret : undefined,
    tokenEndpointAuthMethod: typeof registeredMethod === 'string' ? registeredMethod : method,
    clientSecretExpiresAt: typeof expires === 'number' && expires > 0 ? expires * 1000 : undefined,
    redirectUri: options.redirectUri,
  };
}
