/**
 * What the HTTP engine asks of the `auth` option: serve the protected resource
 * metadata, turn a request's bearer token into AuthInfo (or a 401/403
 * challenge), and refuse an operation whose scopes the token lacks (403
 * step-up) before any status is committed.
 */
import { isPlainObject } from '../../../jsonrpc/message.js';
import type { JsonRpcId } from '../../../jsonrpc/message.js';
import { attachAccessToken } from '../../../protocol/request/access-token.js';
import type { AuthInfo, ConnectionFactory, ScopeAccess } from '../../../protocol/connection.js';
import { httpError } from '../errors.js';
import type { HttpRequest, HttpResponse } from '../types.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import { challengeResponse, type Challenge } from './challenge.js';
import { metadataDocument, metadataResponder } from './metadata.js';
import { canonicalResource, metadataUrl, resourcePath, trimSlash } from './resource.js';
import { missingScopes, scopeUnion, type Implies } from './scopes.js';
import { InvalidTokenError, type AuthOptions, type Principal, type TokenVerifier, type VerifyTarget } from './types.js';

/** The most clock skew a verifier may tolerate (jwtVerifier's bound too). */
export const MAX_CLOCK_SKEW_SECONDS = 300;

export interface AuthGate {
  readonly resource: string;
  /** The metadata answer for a request on a well-known path; undefined for any other path. */
  metadata(request: HttpRequest): HttpResponse | undefined;
  /** The caller's AuthInfo, or the challenge that refuses the request. */
  authenticate(request: HttpRequest): Promise<{ authInfo: AuthInfo; response?: undefined } | { response: HttpResponse }>;
  /** 403 `insufficient_scope` when the payload's requests need scopes the caller lacks. */
  authorize(factory: ConnectionFactory, payload: unknown, authInfo: AuthInfo | undefined, id: JsonRpcId | undefined): HttpResponse | undefined;
}

/** Validates the options (throws a TypeError naming the problem) and builds the gate. */
export function createAuthGate(options: AuthOptions, servedPath: string | undefined, report: (what: string, error: unknown) => void): AuthGate {
  if (options.resource === undefined) throw new TypeError('auth.resource is required: the canonical URL of this MCP endpoint (e.g. https://mcp.example.com/mcp)');
  const resource = canonicalResource(options.resource);
  if (servedPath !== undefined && resourcePath(resource) !== trimSlash(servedPath)) {
    throw new TypeError(
      `auth.resource "${options.resource}" does not match the served endpoint path "${servedPath}": tokens are issued for the resource URL, so it must name this endpoint`,
    );
  }
  const servers: readonly string[] = Array.isArray(options.authorizationServers) ? options.authorizationServers : [];
  if (servers.length === 0) throw new TypeError('auth.authorizationServers must list at least one authorization server (its issuer URL)');
  for (const issuer of servers) {
    if (!URL.canParse(issuer)) throw new TypeError(`auth.authorizationServers: "${issuer}" is not an absolute URL`);
  }
  if (typeof options.verify !== 'function') throw new TypeError('auth.verify must be a function (token, request) => principal; see jwtVerifier in mcpkit/auth');
  return new Gate(resource, options, report);
}

/** How often a verifier that keeps failing is reported (the first failure always is). */
const VERIFIER_REPORT_INTERVAL_MS = 60_000;

class Gate implements AuthGate {
  private readonly metadataUrl: string;
  private readonly required: readonly string[];
  private readonly verify: TokenVerifier;
  private readonly implies: Implies | undefined;
  private readonly filterLists: boolean;
  private readonly target: VerifyTarget;
  private lastReportAt = -Infinity;
  readonly metadata: (request: HttpRequest) => HttpResponse | undefined;

  constructor(
    readonly resource: string,
    options: AuthOptions,
    private readonly report: (what: string, error: unknown) => void,
  ) {
    this.metadataUrl = metadataUrl(resource);
    this.required = scopeUnion(options.requiredScopes);
    this.verify = options.verify;
    this.implies = options.implies;
    this.filterLists = options.filterLists === true;
    this.target = Object.freeze({ resource, authorizationServers: Object.freeze([...options.authorizationServers]) });
    this.metadata = metadataResponder(resource, metadataDocument(resource, options), options.metadataMaxAgeSeconds ?? 3600);
  }

  async authenticate(request: HttpRequest): Promise<{ authInfo: AuthInfo } | { response: HttpResponse }> {
    if (/(?:^|&)access_token=/.test(request.query)) {
      return this.refuse('invalid_request', 'Bad request: access tokens must not be sent in the query string; send "Authorization: Bearer <token>"');
    }
    const header = request.headers['authorization'];
    if (header === undefined || !/^bearer(?:\s|$)/i.test(header)) {
      // No error code when no credentials were sent (RFC 6750 §3.1).
      return { response: challengeResponse(this.challenge(), 'Unauthorized: this MCP server needs an OAuth access token ("Authorization: Bearer <token>"); discover how to get one from the resource_metadata in WWW-Authenticate') };
    }
    const match = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (match === null) return this.refuse('invalid_request', 'Bad request: the Authorization header must be "Bearer <token>" with one token68 value');
    const token = match[1]!;

    let principal: Principal | undefined;
    try {
      principal = await this.verify(token, request, this.target);
    } catch (error) {
      if (error instanceof InvalidTokenError) return this.refuse('invalid_token', `Unauthorized: ${error.message}`);
      // The verifier could not decide (the JWKS or introspection endpoint is down, jose is not
      // installed): not the token's fault. The client only sees 503, so the operator must see why.
      const now = Date.now();
      if (now - this.lastReportAt >= VERIFIER_REPORT_INTERVAL_MS) {
        this.lastReportAt = now;
        this.report('the auth verifier failed, so requests are answered 503 (reported at most once a minute)', error);
      }
      return {
        response: httpError(503, ErrorCode.InternalError, 'Service unavailable: the access token could not be verified right now; retry later', {
          headers: { 'retry-after': '5' },
        }),
      };
    }
    if (principal === undefined) return this.refuse('invalid_token', 'Unauthorized: the access token is invalid, expired, or not issued for this server');
    // A backstop for verifiers that forget `exp`; within the largest skew a verifier may allow, the verifier decides.
    if (principal.expiresAt !== undefined && (principal.expiresAt + MAX_CLOCK_SKEW_SECONDS) * 1000 <= Date.now()) {
      return this.refuse('invalid_token', 'Unauthorized: the access token has expired');
    }
    const authInfo = this.authInfoOf(principal, token);
    const missing = missingScopes(authInfo.scopes ?? [], this.required, this.implies);
    if (missing.length > 0) return { response: this.insufficient(missing, authInfo.scopes ?? [], 'this server', undefined) };
    return { authInfo };
  }

  authorize(factory: ConnectionFactory, payload: unknown, authInfo: AuthInfo | undefined, id: JsonRpcId | undefined): HttpResponse | undefined {
    if (factory.scopesFor === undefined) return undefined;
    let needed: string[] | undefined;
    let what = '';
    for (const message of Array.isArray(payload) ? payload : [payload]) {
      if (!isPlainObject(message) || typeof message['method'] !== 'string' || !('id' in message)) continue;
      const method: string = message['method'];
      const scopes = factory.scopesFor(method, message['params']);
      if (scopes === undefined || scopes.length === 0) continue;
      needed = scopeUnion(needed, scopes);
      what ||= describe(method, message['params']);
    }
    if (needed === undefined) return undefined;
    const granted = authInfo?.scopes ?? [];
    const missing = missingScopes(granted, needed, this.implies);
    if (missing.length === 0) return undefined;
    return this.insufficient(needed, granted, what, id);
  }

  private authInfoOf(principal: Principal, token: string): AuthInfo {
    const scopes = [...(principal.scopes ?? [])];
    const implies = this.implies;
    const access: ScopeAccess = {
      permits: (required) => missingScopes(scopes, required, implies).length === 0,
      filterLists: this.filterLists,
    };
    const info: AuthInfo = { scopes, access };
    if (principal.subject !== undefined) info.subject = principal.subject;
    if (principal.clientId !== undefined) info.clientId = principal.clientId;
    if (principal.expiresAt !== undefined) info.expiresAt = principal.expiresAt;
    if (principal.claims !== undefined) info.extra = { ...principal.claims };
    attachAccessToken(info, token);
    return info;
  }

  /**
   * 403 naming every scope the operation needs in one challenge, with the
   * scopes already granted, so a client that replaces (not unions) its scope
   * set on step-up keeps what it had.
   */
  private insufficient(needed: readonly string[], granted: readonly string[], what: string, id: JsonRpcId | undefined): HttpResponse {
    const scopes = scopeUnion(this.required, needed, granted);
    const missing = missingScopes(granted, needed, this.implies);
    const challenge: Challenge = {
      error: 'insufficient_scope',
      description: `${what} needs the scope ${missing.join(' ')}`,
      scopes,
      metadataUrl: this.metadataUrl,
    };
    return challengeResponse(
      challenge,
      `Forbidden: ${what} needs the scope(s) ${missing.join(', ')}, which the access token does not grant; re-authorize with scope "${scopes.join(' ')}"`,
      id,
    );
  }

  private challenge(error?: Challenge['error'], description?: string): Challenge {
    const challenge: Challenge = { metadataUrl: this.metadataUrl, scopes: this.required };
    if (error !== undefined) challenge.error = error;
    if (description !== undefined) challenge.description = description;
    return challenge;
  }

  private refuse(error: 'invalid_request' | 'invalid_token', message: string): { response: HttpResponse } {
    const description = message.slice(message.indexOf(': ') + 2);
    return { response: challengeResponse(this.challenge(error, description), message) };
  }
}

function describe(method: string, params: unknown): string {
  const p = isPlainObject(params) ? params : {};
  const name = typeof p['name'] === 'string' ? p['name'] : typeof p['uri'] === 'string' ? p['uri'] : undefined;
  if (name === undefined) return method;
  // The name or URI is the client's: echoed into a header, it must stay short.
  return `${method} "${name.length > MAX_ECHOED ? `${name.slice(0, MAX_ECHOED)}...` : name}"`;
}

/** Longest tool/prompt name or resource URI a 403 challenge repeats. */
const MAX_ECHOED = 200;
