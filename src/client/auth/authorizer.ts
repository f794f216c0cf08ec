/**
 * The user-facing step of the authorization code flow, as a hook: the
 * provider builds the authorization URL, the authorizer gets it in front of
 * the user (a browser, a printed link, a test's scripted login) and hands
 * back the URL the authorization server redirected to.
 */

export interface OAuthAuthorizer {
  /** The redirect URI registered and sent; asked before each authorization. */
  redirectUri(): string | Promise<string>;
  /**
   * Gets `url` to the user; resolves with the URL the authorization server
   * redirected to (carrying `code`, `state` and `iss`, or `error`).
   */
  authorize(url: URL, options: { redirectUri: string; signal?: AbortSignal | undefined }): Promise<string | URL>;
}
