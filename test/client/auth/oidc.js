/**
 * A real, maintained authorization server for the OAuth client's tests:
 * oidc-provider on 127.0.0.1, open dynamic registration, PKCE, resource
 * indicators issuing JWT access tokens for the resource asked, refresh tokens.
 * Its login and consent pages are replaced by a route that signs in "alice"
 * and grants what was asked unless `grantable` says no — a consenting user,
 * reached by following redirects (what headlessAuthorizer does).
 */
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/**
 * @param {{ scopes: string[], accessTokenTtl?: number }} options
 * @returns {Promise<{ issuer: string, grants: string[], grantable: (scope: string) => boolean, close(): Promise<void> }>}
 *   grants: the grant types the token endpoint granted, in order; grantable: which scopes the user grants (default all).
 */
export async function startOidcProvider(options) {
  const http = createServer();
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${http.address().port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test' };
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    scopes: ['openid', 'offline_access', ...options.scopes],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope: options.scopes.join(' '),
          audience: resourceIndicator,
          accessTokenTTL: options.accessTokenTtl ?? 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  });
  const state = {
    issuer,
    grants: [],
    grantable: () => true,
    close: () => new Promise((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
  provider.on('grant.success', (ctx) => {
    state.grants.push(String(ctx.oidc.params?.grant_type));
  });
  const callback = provider.callback();
  http.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      void interact(provider, state, req, res).catch((error) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    callback(req, res);
  });
  return state;
}

async function interact(provider, state, req, res) {
  const details = await provider.interactionDetails(req, res);
  const prompt = details.prompt;
  if (prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: 'alice' } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId === undefined ? new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id }) : await provider.Grant.find(details.grantId);
  if (prompt.details.missingOIDCScope !== undefined) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
  for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes ?? {})) {
    if (!scopes.every((scope) => state.grantable(scope))) {
      // The user says no: the authorization server redirects back with access_denied.
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the user did not grant every scope' }, { mergeWithLastSubmission: false });
      return;
    }
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
