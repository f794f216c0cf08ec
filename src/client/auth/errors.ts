/**
 * Why authorization failed. Messages name the host, the field and what was
 * expected; they never carry a token, a code, a verifier or a client secret.
 */

export type AuthFailure =
  /** Protected resource or authorization server metadata missing, malformed, oversized or redirected. */
  | 'discovery'
  /** The metadata's `resource` does not name this server (RFC 9728 §3.3). */
  | 'resource_mismatch'
  /** The metadata's `issuer`, or the authorization response's `iss`, is not the issuer discovered (RFC 8414 §3.3, RFC 9207). */
  | 'issuer_mismatch'
  /** The authorization response's `state` is not the one sent. */
  | 'state_mismatch'
  /** The user or the authorization server refused (an `error` on the redirect). */
  | 'denied'
  /** No way to identify the client: no pre-registration, no CIMD support, no registration endpoint; or registration failed. */
  | 'registration'
  /** The token endpoint refused or answered something that is not a token. */
  | 'token'
  /** 403 insufficient_scope again after stepping up: the authorization server will not grant what the server asks. */
  | 'insufficient_scope'
  /** The provider was configured wrongly. */
  | 'config';

export class McpAuthError extends Error {
  override readonly name = 'McpAuthError';
  readonly kind: AuthFailure;
  /** The OAuth `error` code, when the authorization or token endpoint sent one. */
  readonly oauthError: string | undefined;
  constructor(kind: AuthFailure, message: string, options: { oauthError?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.oauthError = options.oauthError;
  }
}
