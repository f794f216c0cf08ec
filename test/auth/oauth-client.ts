/**
 * An OAuth client provider for the official SDK clients (v1 and v2 share the
 * interface): memory storage, and a "browser" that follows the authorization
 * URL to the test authorization server (which approves at once) and keeps the
 * callback parameters for `finishAuth`.
 */
const REDIRECT = 'http://127.0.0.1:1/callback';

export class TestOAuthProvider {
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata = {
    client_name: 'mcpkit interop test',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  /** Scopes asked for at each authorization, in order. */
  readonly authorizations: (string | null)[] = [];
  /** What the authorization server redirected back with (code, state, iss). */
  callback: URLSearchParams | undefined;
  #client: unknown;
  #tokens: { access_token: string; scope?: string } | undefined;
  #verifier = '';

  /**
   * @param keepRefreshToken false: store access tokens only. The v1 client answers a 403 by
   *   refreshing when it holds a refresh token, and a refresh cannot widen the scope.
   */
  constructor(private readonly keepRefreshToken = true) {}

  clientInformation(): never {
    return this.#client as never;
  }

  saveClientInformation(info: unknown): void {
    this.#client = info;
  }

  tokens(): never {
    return this.#tokens as never;
  }

  saveTokens(tokens: { access_token: string; scope?: string; refresh_token?: string }): void {
    const { refresh_token: refresh, ...rest } = tokens;
    this.#tokens = this.keepRefreshToken && refresh !== undefined ? { ...rest, refresh_token: refresh } as typeof tokens : rest;
  }

  get accessToken(): string | undefined {
    return this.#tokens?.access_token;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizations.push(url.searchParams.get('scope'));
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status !== 302 || location === null) throw new Error(`authorization refused: ${response.status} ${await response.text()}`);
    this.callback = new URL(location).searchParams;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }
}
