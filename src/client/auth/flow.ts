/**
 * The OAuth client provider the HTTP transport calls on 401 and 403: discover,
 * identify the client, obtain tokens (authorization code + PKCE, refresh, or
 * client credentials), keep them per server, and answer "retry once" or fail
 * with a McpAuthError that says why. Concurrent 401s share one flow.
 */
import type { HttpAuthProvider, UnauthorizedAnswer } from '../http.js';
import type { OAuthAuthorizer } from './authorizer.js';
import { bearerChallenge, scopeList } from './challenge.js';
import { checkResource, discoverAuthServer, discoverResource, legacyAuthServer, type AuthServerMetadata } from './discovery.js';
import { McpAuthError } from './errors.js';
import type { FetchContext, FetchLike } from './fetch-json.js';
import { createPkce, randomToken } from './pkce.js';
import { resolveClient, type PreRegisteredClient } from './registration.js';
import { MemoryTokenStore, type OAuthClientInformation, type OAuthStore, type OAuthTokens } from './store.js';
import { requestTokens, secretAuthentication, type TokenRequest } from './tokens.js';
import { keysOf, refuseUnknownKeys } from '../../util/known-keys.js';

const OAUTH_KEYS = keysOf<OAuthOptions>({
  authorizer: true, preRegistered: true, clientMetadataUrl: true, clientName: true, applicationType: true, offlineAccess: true, maxStepUps: true,
  scopes: true, store: true, fetch: true, maxMetadataBytes: true, timeoutMs: true,
});
const PRE_REGISTERED_KEYS = keysOf<PreRegisteredClient>({ clientId: true, clientSecret: true, tokenEndpointAuthMethod: true, issuer: true });

export interface OAuthCommonOptions {
  /** Scopes always asked for, besides the ones the server's challenge or metadata names. */
  scopes?: string[];
  /** Where tokens and registrations are kept (default: a MemoryTokenStore). */
  store?: OAuthStore;
  fetch?: FetchLike;
  /** Largest metadata, registration or token answer read (default 256 KiB). */
  maxMetadataBytes?: number;
  /** Per request to a metadata, registration or token endpoint (default 30 s). */
  timeoutMs?: number;
}

export interface OAuthOptions extends OAuthCommonOptions {
  /** Gets the authorization URL to the user and hands back the redirect (loopbackAuthorizer, headlessAuthorizer, your own). */
  authorizer: OAuthAuthorizer;
  /** Credentials registered with the authorization server beforehand. */
  preRegistered?: PreRegisteredClient;
  /** An https URL serving this client's metadata document, used as client_id where the server supports it. */
  clientMetadataUrl?: string;
  /** `client_name` in dynamic registration (default "mcpkit client"). */
  clientName?: string;
  /** `application_type` in dynamic registration (default "native": a loopback or custom-scheme redirect). */
  applicationType?: 'native' | 'web';
  /** Ask for `offline_access` (a refresh token) when the authorization server lists it (default true). */
  offlineAccess?: boolean;
  /** Re-authorizations on 403 insufficient_scope asking again for scopes already asked for, per server, before giving up (default 2). */
  maxStepUps?: number;
}

/** How tokens are obtained once the authorization server is known. */
export interface Grant {
  obtain(as: AuthServerMetadata, resource: string, scopes: string[], ctx: FetchContext, signal: AbortSignal | undefined): Promise<OAuthTokens>;
  /** Whether a refresh token may be used (client credentials just asks again). */
  refreshable: boolean;
  /** Client authentication for a refresh; undefined when the grant cannot refresh. */
  refreshAuthentication?(as: AuthServerMetadata): Promise<TokenRequest['authenticate']>;
}

interface Known {
  as: AuthServerMetadata;
  /** Every scope asked of this server so far (SEP-2350: a step-up asks the union). */
  requested: string[];
  stepUps: number;
}

const REFRESH_MARGIN_MS = 30_000;

export class OAuthClientProvider implements HttpAuthProvider {
  readonly #grant: Grant;
  readonly #store: OAuthStore;
  readonly #ctx: FetchContext;
  readonly #scopes: string[];
  readonly #offlineAccess: boolean;
  readonly #maxStepUps: number;
  readonly #known = new Map<string, Known>();
  readonly #inflight = new Map<string, Promise<boolean>>();

  constructor(grant: Grant, options: OAuthCommonOptions & { offlineAccess?: boolean; maxStepUps?: number }) {
    this.#grant = grant;
    this.#store = options.store ?? new MemoryTokenStore();
    const doFetch = options.fetch;
    this.#ctx = { fetch: doFetch ?? ((input, init) => fetch(input, init)), maxBytes: options.maxMetadataBytes ?? 256 * 1024, timeoutMs: options.timeoutMs ?? 30_000 };
    this.#scopes = options.scopes ?? [];
    this.#offlineAccess = options.offlineAccess ?? true;
    this.#maxStepUps = options.maxStepUps ?? 2;
  }

  /** The tokens held for `serverUrl`, if any (for showing scopes and expiry; never log the token). */
  async tokens(serverUrl: string | URL): Promise<OAuthTokens | undefined> {
    return this.#store.getTokens(resourceKey(new URL(serverUrl)));
  }

  async authorization(url: URL): Promise<string | undefined> {
    const key = resourceKey(url);
    let tokens = await this.#store.getTokens(key);
    if (tokens === undefined) return undefined;
    const known = this.#known.get(key);
    if (tokens.expiresAt !== undefined && tokens.expiresAt - REFRESH_MARGIN_MS <= Date.now() && known !== undefined && known.as.issuer === tokens.issuer) {
      // Expired: refresh before sending rather than after a 401.
      tokens = (await this.#refresh(key, known.as, tokens).catch(() => undefined)) ?? tokens;
    }
    return `Bearer ${tokens.accessToken}`;
  }

  unauthorized(answer: UnauthorizedAnswer): Promise<boolean> {
    const key = resourceKey(answer.url);
    const challenge = bearerChallenge(answer.wwwAuthenticate);
    if (answer.status === 403 && challenge.error !== 'insufficient_scope') return Promise.resolve(false);
    const running = this.#inflight.get(key);
    if (running !== undefined) return running;
    const flow = this.#authorize(key, answer, challenge).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, flow);
    return flow;
  }

  async #authorize(key: string, answer: UnauthorizedAnswer, challenge: ReturnType<typeof bearerChallenge>): Promise<boolean> {
    const ctx: FetchContext = { ...this.#ctx, signal: answer.signal };
    const url = answer.url;
    const prm = await discoverResource(url, challenge.resourceMetadata, ctx);
    let as: AuthServerMetadata;
    let resource = key;
    if (prm !== undefined) {
      checkResource(prm.resource, url);
      resource = prm.resource;
      const issuer = prm.authorizationServers[0]!;
      const found = await discoverAuthServer(issuer, ctx);
      if (found === undefined) throw new McpAuthError('discovery', `the authorization server ${issuer} publishes no metadata (RFC 8414 or OpenID Connect) at any well-known URL`);
      as = found;
    } else {
      as = await legacyAuthServer(url, ctx);
    }
    let held = await this.#store.getTokens(key);
    if (held !== undefined && held.issuer !== as.issuer) {
      // The server moved to another authorization server: what the old one issued is of no use here.
      await this.#store.setTokens(key, undefined);
      held = undefined;
    }
    const before = this.#known.get(key);
    const known: Known = before !== undefined && before.as.issuer === as.issuer ? { ...before, as } : { as, requested: [], stepUps: 0 };
    this.#known.set(key, known);
    const challenged = scopeList(challenge.scope);
    if (answer.status === 403) {
      const granted = held?.scopes ?? [];
      if (challenged.length > 0 && challenged.every((s) => granted.includes(s))) {
        throw new McpAuthError('insufficient_scope', `${url.origin}${url.pathname} answered 403 insufficient_scope asking for ${challenged.join(' ')}, which the token already has; not re-authorizing`);
      }
      // A scope not asked for before is progress (a tool that needs more); asking again for the same ones is what gets bounded.
      if (challenged.length > 0 && challenged.every((s) => known.requested.includes(s))) {
        if (known.stepUps >= this.#maxStepUps) {
          throw new McpAuthError('insufficient_scope', `${url.origin}${url.pathname} answered 403 insufficient_scope for ${challenged.join(' ')} again after ${known.stepUps} step-ups asking for it (maxStepUps); giving up`);
        }
        known.stepUps++;
      }
    } else if (held?.refreshToken !== undefined && this.#grant.refreshable) {
      const refreshed = await this.#refresh(key, as, held).catch(() => undefined);
      if (refreshed !== undefined) return true;
    }
    const base = challenged.length > 0 ? challenged : (prm?.scopesSupported ?? []);
    const scopes = [...new Set([...known.requested, ...base, ...this.#scopes])];
    if (this.#offlineAccess && this.#grant.refreshable && as.scopesSupported?.includes('offline_access') === true && !scopes.includes('offline_access')) scopes.push('offline_access');
    known.requested = scopes;
    const tokens = await this.#grant.obtain(as, resource, scopes, ctx, answer.signal);
    await this.#store.setTokens(key, tokens);
    return true;
  }

  async #refresh(key: string, as: AuthServerMetadata, held: OAuthTokens): Promise<OAuthTokens | undefined> {
    if (held.refreshToken === undefined || this.#grant.refreshAuthentication === undefined) return undefined;
    const authenticate = await this.#grant.refreshAuthentication(as);
    try {
      const tokens = await requestTokens(as, { params: { grant_type: 'refresh_token', refresh_token: held.refreshToken, resource: held.resource }, authenticate, requestedScopes: held.scopes, resource: held.resource }, this.#ctx);
      // No new refresh token: the old one stays valid (RFC 6749 §6); a new one replaces it (rotation).
      const kept: OAuthTokens = { ...tokens, refreshToken: tokens.refreshToken ?? held.refreshToken };
      await this.#store.setTokens(key, kept);
      return kept;
    } catch (error) {
      await this.#store.setTokens(key, undefined);
      throw error;
    }
  }
}

/** The key tokens are kept under: the server URL without query, fragment or trailing slash. */
export function resourceKey(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** Authorization code + PKCE through the authorizer. */
export function authorizationCodeGrant(options: OAuthOptions, store: OAuthStore): Grant {
  const clients = new Map<string, OAuthClientInformation>();
  const clientFor = async (as: AuthServerMetadata, ctx: FetchContext, redirectUri: string): Promise<OAuthClientInformation> => {
    const client = await resolveClient(
      as,
      {
        preRegistered: options.preRegistered,
        clientMetadataUrl: options.clientMetadataUrl,
        clientName: options.clientName ?? 'mcpkit client',
        applicationType: options.applicationType ?? 'native',
        redirectUri,
      },
      store,
      ctx,
    );
    clients.set(as.issuer, client);
    return client;
  };
  return {
    refreshable: true,
    async refreshAuthentication(as) {
      const client = clients.get(as.issuer) ?? (await store.getClient(as.issuer));
      if (client === undefined) throw new McpAuthError('registration', `no client registration with ${as.issuer} to refresh with`);
      return secretAuthentication(client, as);
    },
    async obtain(as, resource, scopes, ctx, signal) {
      if (as.authorizationEndpoint === undefined) throw new McpAuthError('discovery', `the authorization server ${as.issuer} names no authorization_endpoint`);
      if (as.codeChallengeMethodsSupported?.includes('S256') !== true) {
        throw new McpAuthError('discovery', `the authorization server ${as.issuer} does not list S256 in code_challenge_methods_supported; PKCE cannot be assured, so the flow is not started`);
      }
      const redirectUri = await options.authorizer.redirectUri();
      const client = await clientFor(as, ctx, redirectUri);
      const pkce = await createPkce();
      const state = randomToken();
      const url = new URL(as.authorizationEndpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('code_challenge', pkce.challenge);
      url.searchParams.set('code_challenge_method', pkce.method);
      url.searchParams.set('state', state);
      url.searchParams.set('resource', resource);
      if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
      let callback: URL;
      try {
        callback = new URL(await options.authorizer.authorize(url, { redirectUri, signal }));
      } catch (error) {
        if (error instanceof McpAuthError) throw error;
        throw new McpAuthError('denied', `the authorizer failed: ${(error as Error).message}`, { cause: error });
      }
      const params = callback.searchParams;
      // RFC 9207: compared before anything else in the response is trusted, by simple string comparison.
      const iss = params.get('iss');
      if (iss !== null && iss !== as.issuer) throw new McpAuthError('issuer_mismatch', `the authorization response names issuer ${JSON.stringify(iss.slice(0, 200))}, not ${as.issuer}; the code is not used`);
      if (iss === null && as.issParameterSupported) throw new McpAuthError('issuer_mismatch', `the authorization server ${as.issuer} advertises the iss response parameter but the response has none; the code is not used`);
      if (params.get('state') !== state) throw new McpAuthError('state_mismatch', 'the authorization response does not carry the state sent; the code is not used');
      const error = params.get('error');
      if (error !== null) {
        const description = params.get('error_description');
        throw new McpAuthError('denied', `authorization refused: ${error.slice(0, 100)}${description === null ? '' : `: ${description.slice(0, 300)}`}`, { oauthError: error.slice(0, 100) });
      }
      const code = params.get('code');
      if (code === null || code === '') throw new McpAuthError('denied', 'the authorization response carries no code');
      return requestTokens(
        as,
        {
          params: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pkce.verifier, resource },
          authenticate: secretAuthentication(client, as),
          requestedScopes: scopes,
          resource,
        },
        ctx,
      );
    },
  };
}

/** The OAuth client for an HTTP transport: `new StreamableHttpTransport(url, { auth: oauth({ authorizer }) })`. */
export function oauth(options: OAuthOptions): OAuthClientProvider {
  const configError = (message: string): Error => new McpAuthError('config', message);
  refuseUnknownKeys(options, OAUTH_KEYS, 'oauth(options)', configError);
  refuseUnknownKeys(options?.preRegistered, PRE_REGISTERED_KEYS, 'oauth({ preRegistered })', configError);
  if (options?.clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./.test(options.clientMetadataUrl)) {
    throw configError(`oauth(options): clientMetadataUrl must be an https URL with a path (a client ID metadata document), got ${JSON.stringify(String(options.clientMetadataUrl).slice(0, 100))}`);
  }
  if (options === undefined || typeof options.authorizer?.authorize !== 'function' || typeof options.authorizer.redirectUri !== 'function') {
    throw new McpAuthError('config', 'oauth(options): options.authorizer is required (loopbackAuthorizer(), headlessAuthorizer() or an object with redirectUri() and authorize(url))');
  }
  const store = options.store ?? new MemoryTokenStore();
  return new OAuthClientProvider(authorizationCodeGrant(options, store), { ...options, store });
}
