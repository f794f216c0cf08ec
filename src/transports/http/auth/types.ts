/**
 * mcpkit as an OAuth 2.1 resource server (MCP authorization, 2025-11-25 and
 * 2026-07-28): what an HTTP adapter's `auth` option holds, and what a token
 * verifier returns. Nothing here loads a JOSE library.
 */
import type { HttpRequest } from '../wire.js';

/** Who a valid access token speaks for, as a verifier found it. */
export interface Principal {
  /** The resource owner (JWT `sub`); sessions, tasks and `requestState` are bound to it. */
  subject?: string;
  /** The OAuth client the token was issued to (`client_id` / `azp`). */
  clientId?: string;
  /** Granted scopes (the token's `scope`, split on spaces). */
  scopes?: readonly string[];
  /** Expiry in seconds since the epoch (JWT `exp`); a past value is refused. */
  expiresAt?: number;
  /** Every claim of the token (or introspection answer), for handlers that need more. */
  claims?: Readonly<Record<string, unknown>>;
}

/**
 * Checks a bearer token and returns its principal, or `undefined` (or throws
 * `InvalidTokenError`) when the token must be refused: 401 `invalid_token`.
 * It MUST check that the token was issued for this server (its audience):
 * the bundled `jwtVerifier` and `introspectionVerifier` (`mcpkit/auth`) do.
 * Any other error answers 503: the token could not be checked right now.
 */
export type TokenVerifier = (token: string, request: HttpRequest, target: VerifyTarget) => Principal | undefined | Promise<Principal | undefined>;

/** What the token must have been issued for: the `auth` option's canonical resource and trusted issuers. */
export interface VerifyTarget {
  /** The canonical resource URL: the token's audience must name it. */
  readonly resource: string;
  /** The trusted issuers: the token's issuer must be one of them. */
  readonly authorizationServers: readonly string[];
}

export interface AuthOptions {
  /**
   * The canonical URL of this MCP endpoint (RFC 8707 / RFC 9728 `resource`), e.g.
   * `https://mcp.example.com/mcp`. Tokens must name it in their audience. It must
   * match the served endpoint or the adapter refuses to start. `listen()` defaults
   * it to the URL it serves.
   */
  resource?: string;
  /** Issuer identifiers of the authorization servers whose tokens are accepted (at least one). */
  authorizationServers: readonly string[];
  /**
   * Scopes advertised in the protected resource metadata (`scopes_supported`):
   * the minimal set for basic use. `offline_access` is never advertised.
   */
  scopesSupported?: readonly string[];
  /** Scopes every request needs (named in every challenge). Default: none. */
  requiredScopes?: readonly string[];
  /** Validates a bearer token; see TokenVerifier. */
  verify: TokenVerifier;
  /**
   * Scope hierarchies: whether a granted scope covers a required one (besides
   * equality), e.g. `(granted, required) => granted === 'files' && required.startsWith('files:')`.
   */
  implies?: (granted: string, required: string) => boolean;
  /** List only the tools, prompts and resources the caller's scopes allow (default false: list all; a call without the scope gets the step-up challenge). */
  filterLists?: boolean;
  /** Human-readable name of this server in the metadata (`resource_name`). */
  resourceName?: string;
  /** A page about this server for developers (`resource_documentation`). */
  resourceDocumentation?: string;
  /** How long clients and proxies may cache the metadata, in seconds (default 3600). */
  metadataMaxAgeSeconds?: number;
}

/** Thrown by a verifier: the token is invalid, expired, or not meant for this server → 401 `invalid_token`. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}
