/**
 * Where the OAuth client keeps what it obtained: tokens per MCP server and
 * client registrations per authorization server. Memory unless the caller
 * gives a store; nothing is written anywhere by default.
 */

export interface OAuthTokens {
  accessToken: string;
  /** `Bearer` or `DPoP`, as the token endpoint said. */
  tokenType: string;
  refreshToken?: string | undefined;
  /** Epoch milliseconds; undefined when the token endpoint gave no `expires_in`. */
  expiresAt?: number | undefined;
  /** The scopes granted (the ones asked when the answer named none). */
  scopes: string[];
  /** The authorization server that issued them: tokens never go to a server whose metadata names another. */
  issuer: string;
  /** The resource indicator they were issued for. */
  resource: string;
}

export interface OAuthClientInformation {
  clientId: string;
  clientSecret?: string | undefined;
  /** `client_secret_basic`, `client_secret_post` or `none`. */
  tokenEndpointAuthMethod?: string | undefined;
  /** Epoch milliseconds after which a registered secret is no longer valid (0 or undefined: never). */
  clientSecretExpiresAt?: number | undefined;
  /** The redirect URI registered with it. */
  redirectUri?: string | undefined;
}

/** Each method may answer directly or with a promise (a keychain, a file, a database). */
export interface OAuthStore {
  /** Tokens for the MCP server `resource` (its canonical URL). */
  getTokens(resource: string): OAuthTokens | undefined | Promise<OAuthTokens | undefined>;
  setTokens(resource: string, tokens: OAuthTokens | undefined): void | Promise<void>;
  /** The registration with the authorization server `issuer`. */
  getClient(issuer: string): OAuthClientInformation | undefined | Promise<OAuthClientInformation | undefined>;
  setClient(issuer: string, client: OAuthClientInformation | undefined): void | Promise<void>;
}

/** The default store: two maps, each at most `maxEntries` (oldest dropped first). */
export class MemoryTokenStore implements OAuthStore {
  readonly #tokens = new Map<string, OAuthTokens>();
  readonly #clients = new Map<string, OAuthClientInformation>();
  readonly #max: number;

  constructor(options: { maxEntries?: number } = {}) {
    this.#max = options.maxEntries ?? 100;
  }

  getTokens(resource: string): OAuthTokens | undefined {
    return this.#tokens.get(resource);
  }

  setTokens(resource: string, tokens: OAuthTokens | undefined): void {
    put(this.#tokens, resource, tokens, this.#max);
  }

  getClient(issuer: string): OAuthClientInformation | undefined {
    return this.#clients.get(issuer);
  }

  setClient(issuer: string, client: OAuthClientInformation | undefined): void {
    put(this.#clients, issuer, client, this.#max);
  }
}

function put<T>(map: Map<string, T>, key: string, value: T | undefined, max: number): void {
  map.delete(key);
  if (value === undefined) return;
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
}
