/**
 * A real authorization server for the upstream API's client credentials: oidc-provider on
 * 127.0.0.1 with the client_credentials grant, one confidential client, and JWT access tokens
 * for the API's resource (so the test's API can verify them against the issuer's JWKS).
 */
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/**
 * @param {{ clientId: string, clientSecret: string, resource: string, scopes: string[] }} options
 * @returns {Promise<{ issuer: string, tokenUrl: string, jwksUrl: string, grants: number, close(): Promise<void> }>}
 *   grants: how many tokens the token endpoint issued.
 */
export async function startTokenServer(options) {
  const http = createServer();
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${http.address().port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'upstream' };
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: [{ client_id: options.clientId, client_secret: options.clientSecret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], token_endpoint_auth_method: 'client_secret_basic' }],
    scopes: options.scopes,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope: options.scopes.join(' '),
          audience: resourceIndicator,
          accessTokenTTL: 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  const state = {
    issuer,
    tokenUrl: `${issuer}/token`,
    jwksUrl: `${issuer}/jwks`,
    grants: 0,
    close: () => new Promise((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
  provider.on('grant.success', () => {
    state.grants++;
  });
  http.on('request', provider.callback());
  return state;
}
