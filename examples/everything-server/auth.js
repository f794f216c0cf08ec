import { fetchIssuerMetadata, jwtVerifier } from 'mcpkit/auth';

const none = { type: 'object', properties: {} };

/**
 * Authorization for the demo, on when MCPKIT_AUTH_ISSUER names an OAuth issuer:
 * its RFC 8414 metadata gives the JWKS, every request then needs a JWT issued
 * for MCPKIT_AUTH_RESOURCE (default: the URL the demo serves), and the
 * `test_scoped` tool needs the scope `mcp:write` on top (step-up). Returns the
 * `auth` option for listen(), or undefined when the variable is unset.
 */
export async function configureAuth(server, env = process.env) {
  const issuer = env.MCPKIT_AUTH_ISSUER;
  if (!issuer) return undefined;
  try {
    await import('jose');
  } catch {
    throw new Error('MCPKIT_AUTH_ISSUER is set, but verifying JWTs needs the optional dependency "jose": npm install jose');
  }
  // Fails fast (and says why) when the issuer is unreachable or its metadata is wrong.
  const metadata = await fetchIssuerMetadata(issuer, 5_000);
  if (typeof metadata.jwks_uri !== 'string') throw new Error(`The metadata of ${issuer} has no jwks_uri`);

  server.tool('test_scoped', { description: 'Needs the OAuth scope mcp:write (403 step-up without it)', input: none, scopes: ['mcp:write'] }, (_args, ctx) =>
    `Hello ${ctx.auth?.subject ?? 'anonymous'}: your token grants ${ctx.auth?.scopes.join(' ') || 'no scopes'}`);

  return {
    ...(env.MCPKIT_AUTH_RESOURCE ? { resource: env.MCPKIT_AUTH_RESOURCE } : {}),
    authorizationServers: [issuer],
    verify: jwtVerifier({ jwksUri: metadata.jwks_uri }),
    resourceName: 'mcpkit everything-server',
  };
}
