import { accessTokenOf } from './access-token.js';
import type { AuthInfo } from '../connection.js';
import { toBase64Url } from '../../util/bytes.js';
import { sha256 } from '../../util/crypto.js';

/**
 * The identity that owns what a client makes the server hold (sessions, tasks,
 * `requestState`, upstream links and subscriptions of a gateway), derived from what
 * `authenticate` returned. `undefined` means unauthenticated: such state is bound to
 * nobody in particular and is reachable only by other unauthenticated callers.
 *
 * Preference: `subject` (stable across token refreshes), then a digest of the
 * token (never the token itself: keys may be logged or stored), and only for a
 * caller with neither, `clientId`. A client id names an application, not a user:
 * preferring it would make every user of one app the same principal.
 *
 * Qualified by the token's issuer when it names one (`extra.iss`, where the HTTP `auth`
 * option puts the claims): a subject is unique only within its issuer (OIDC Core §2), so
 * two trusted authorization servers may give the same `sub` to two people.
 * Length-prefixed, so no (issuer, subject) pair can spell another's key.
 */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  const principal = unqualified(auth);
  const issuer = issuerOf(auth);
  return principal === undefined || issuer === undefined ? principal : `iss:${issuer.length}:${issuer} ${principal}`;
}

function unqualified(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  if (typeof auth.subject === 'string' && auth.subject !== '') return `sub:${auth.subject}`;
  const token = accessTokenOf(auth);
  if (typeof token === 'string' && token !== '') return `token:${toBase64Url(sha256().update(token).digest()).slice(0, 32)}`;
  if (typeof auth.clientId === 'string' && auth.clientId !== '') return `client:${auth.clientId}`;
  return undefined;
}

/** The issuer of the caller's token: its `iss` claim (`auth.extra.iss`, where the HTTP `auth` option puts the claims). */
export function issuerOf(auth: AuthInfo | undefined): string | undefined {
  const iss = auth?.extra?.['iss'];
  return typeof iss === 'string' && iss !== '' ? iss : undefined;
}

/**
 * Who is charged for a quota: the principal, or for an unauthenticated caller its
 * remote address (when the transport knows it), or one shared anonymous owner.
 */
export function quotaOwnerOf(auth: AuthInfo | undefined, remoteAddress?: string): string {
  return principalOf(auth) ?? (remoteAddress !== undefined && remoteAddress !== '' ? `addr:${remoteAddress}` : 'anonymous');
}

/** True when `auth` may use state bound to `owner` (the principal recorded when it was created). */
export function samePrincipal(owner: string | undefined, auth: AuthInfo | undefined): boolean {
  return owner === principalOf(auth);
}
