/** A principal from token claims (a JWT payload or an RFC 7662 introspection answer). */
import { parseScope } from '../transports/http/auth/scopes.js';
import type { Principal } from '../transports/http/auth/types.js';

/** Subject, client id (`client_id`, else `azp`), scopes (`scope`, else `scp`), expiry and every claim. */
export function principalFromClaims(claims: Record<string, unknown>): Principal {
  const principal: Principal = { scopes: parseScope(claims['scope'] ?? claims['scp']), claims };
  if (typeof claims['sub'] === 'string') principal.subject = claims['sub'];
  const client = claims['client_id'] ?? claims['azp'];
  if (typeof client === 'string') principal.clientId = client;
  if (typeof claims['exp'] === 'number') principal.expiresAt = claims['exp'];
  return principal;
}
