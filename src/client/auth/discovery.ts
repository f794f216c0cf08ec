/**
 * Where to authorize: protected resource metadata (RFC 9728) from the
 * challenge's `resource_metadata`, else the path-aware then the root
 * well-known URL; then authorization server metadata (RFC 8414, then OpenID
 * Connect Discovery) at the URLs the MCP authorization spec lists, the
 * `issuer` compared with the one the URLs were built from. Every document is
 * bounded in bytes, read without following redirects, and type-checked field
 * by field before anything in it is used.
 */
import { McpAuthError } from './errors.js';
import { requestJson, safeUrl, type FetchContext } from './fetch-json.js';

export interface ResourceMetadata {
  resource: string;
  authorizationServers: string[];
  scopesSupported: string[] | undefined;
  /** Where it was read. */
  url: string;
}

export interface AuthServerMetadata {
  issuer: string;
  authorizationEndpoint: string | undefined;
  tokenEndpoint: string;
  registrationEndpoint: string | undefined;
  scopesSupported: string[] | undefined;
  grantTypesSupported: string[] | undefined;
  codeChallengeMethodsSupported: string[] | undefined;
  tokenEndpointAuthMethodsSupported: string[] | undefined;
  clientIdMetadataDocumentSupported: boolean;
  /** RFC 9207: the authorization response carries `iss`. */
  issParameterSupported: boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An endpoint or identifier URL: absolute, https (http only on loopback), no fragment. */
export function checkUrl(value: unknown, field: string, where: string): URL {
  if (typeof value !== 'string' || value === '') throw new McpAuthError('discovery', `${where}: "${field}" must be a URL string`);
  if (value.length > 2048) throw new McpAuthError('discovery', `${where}: "${field}" is longer than 2048 characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new McpAuthError('discovery', `${where}: "${field}" is not an absolute URL: ${JSON.stringify(value.slice(0, 100))}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new McpAuthError('discovery', `${where}: "${field}" must be an https URL (http only on loopback), got ${safeUrl(value)}`);
  }
  if (url.hash !== '' || value.includes('#')) throw new McpAuthError('discovery', `${where}: "${field}" must not contain a fragment`);
  return url;
}

function stringList(value: unknown, field: string, where: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > 256 || !value.every((v) => typeof v === 'string' && v.length <= 1024)) {
    throw new McpAuthError('discovery', `${where}: "${field}" must be an array of at most 256 strings`);
  }
  return value as string[];
}

/** RFC 9728 §3.1: the path-aware URL (when the resource has a path), then the root one. */
export function resourceMetadataUrls(serverUrl: URL): URL[] {
  const path = serverUrl.pathname.replace(/\/+$/, '');
  const root = new URL('/.well-known/oauth-protected-resource', serverUrl.origin);
  return path === '' ? [root] : [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin), root];
}

/**
 * The protected resource metadata for `serverUrl`, or undefined when none is
 * published (every candidate answered 4xx): a 2025-03-26 server.
 */
export async function discoverResource(serverUrl: URL, fromChallenge: string | undefined, ctx: FetchContext): Promise<ResourceMetadata | undefined> {
  const candidates: URL[] = [];
  if (fromChallenge !== undefined) {
    const url = checkUrl(fromChallenge, 'resource_metadata', `the WWW-Authenticate challenge of ${serverUrl.origin}`);
    // The metadata describes this server: served from elsewhere, it could name any authorization server.
    if (url.origin !== serverUrl.origin) {
      throw new McpAuthError('discovery', `the WWW-Authenticate challenge of ${serverUrl.origin} names resource metadata on another origin (${url.origin}); refused`);
    }
    candidates.push(url);
  }
  for (const url of resourceMetadataUrls(serverUrl)) if (!candidates.some((c) => c.href === url.href)) candidates.push(url);
  for (const url of candidates) {
    const answer = await requestJson(ctx, url, { method: 'GET', headers: { accept: 'application/json' } }, 'discovery', 'protected resource metadata');
    if (answer.status >= 400 && answer.status < 500) continue;
    const where = `the protected resource metadata at ${url.origin}${url.pathname}`;
    if (answer.status !== 200) throw new McpAuthError('discovery', `${where}: HTTP ${answer.status}`);
    if (answer.body === undefined) throw new McpAuthError('discovery', `${where} is not a JSON object`);
    const body = answer.body;
    checkUrl(body['resource'], 'resource', where);
    const resource = body['resource'] as string;
    const servers = stringList(body['authorization_servers'], 'authorization_servers', where);
    if (servers === undefined || servers.length === 0) throw new McpAuthError('discovery', `${where} names no authorization server ("authorization_servers")`);
    return { resource, authorizationServers: servers, scopesSupported: stringList(body['scopes_supported'], 'scopes_supported', where), url: url.href };
  }
  return undefined;
}

/**
 * RFC 9728 §3.3 / MCP: the metadata's `resource` must identify this server —
 * the same origin, and a path that is the server's or a parent of it.
 */
export function checkResource(resource: string, serverUrl: URL): void {
  const url = new URL(resource);
  const path = url.pathname.replace(/\/+$/, '');
  const serverPath = serverUrl.pathname.replace(/\/+$/, '');
  const prefix = path === '' || serverPath === path || serverPath.startsWith(`${path}/`);
  if (url.origin !== serverUrl.origin || !prefix) {
    throw new McpAuthError('resource_mismatch', `the protected resource metadata of ${serverUrl.origin}${serverUrl.pathname} describes another resource (${safeUrl(resource)}); refusing to authorize for it`);
  }
}

/**
 * The well-known URLs for `issuer`, in the spec's order: with a path, RFC 8414
 * path insertion, OIDC path insertion, OIDC path appending; without one, RFC
 * 8414 then OIDC.
 */
export function authServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/+$/, '');
  if (path === '') {
    return [new URL('/.well-known/oauth-authorization-server', issuer.origin), new URL('/.well-known/openid-configuration', issuer.origin)];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/** The metadata of `issuer`, or undefined when no well-known URL has any. */
export async function discoverAuthServer(issuer: string, ctx: FetchContext): Promise<AuthServerMetadata | undefined> {
  const issuerUrl = checkUrl(issuer, 'authorization_servers', 'the protected resource metadata');
  if (issuerUrl.search !== '') throw new McpAuthError('discovery', `the authorization server identifier ${safeUrl(issuer)} must not contain a query`);
  for (const url of authServerMetadataUrls(issuerUrl)) {
    const answer = await requestJson(ctx, url, { method: 'GET', headers: { accept: 'application/json' } }, 'discovery', 'authorization server metadata');
    if (answer.status >= 400 && answer.status < 500) continue;
    const where = `the authorization server metadata at ${url.origin}${url.pathname}`;
    if (answer.status !== 200) throw new McpAuthError('discovery', `${where}: HTTP ${answer.status}`);
    if (answer.body === undefined) throw new McpAuthError('discovery', `${where} is not a JSON object`);
    return readAuthServerMetadata(answer.body, issuer, where);
  }
  return undefined;
}

/** Type-checks a metadata document; its `issuer` must be `issuer`, character for character (RFC 8414 §3.3). */
export function readAuthServerMetadata(body: Record<string, unknown>, issuer: string, where: string): AuthServerMetadata {
  if (body['issuer'] !== issuer) {
    const got = typeof body['issuer'] === 'string' ? safeUrl(body['issuer']) : 'no issuer';
    throw new McpAuthError('issuer_mismatch', `${where} names issuer ${got}, not ${issuer} from which its URL was built; its endpoints are not used`);
  }
  const optionalUrl = (field: string): string | undefined => {
    if (body[field] === undefined) return undefined;
    checkUrl(body[field], field, where);
    return body[field] as string;
  };
  checkUrl(body['token_endpoint'], 'token_endpoint', where);
  const flag = (field: string): boolean => {
    const value = body[field];
    if (value !== undefined && typeof value !== 'boolean') throw new McpAuthError('discovery', `${where}: "${field}" must be a boolean`);
    return value === true;
  };
  return {
    issuer,
    authorizationEndpoint: optionalUrl('authorization_endpoint'),
    tokenEndpoint: body['token_endpoint'] as string,
    registrationEndpoint: optionalUrl('registration_endpoint'),
    scopesSupported: stringList(body['scopes_supported'], 'scopes_supported', where),
    grantTypesSupported: stringList(body['grant_types_supported'], 'grant_types_supported', where),
    codeChallengeMethodsSupported: stringList(body['code_challenge_methods_supported'], 'code_challenge_methods_supported', where),
    tokenEndpointAuthMethodsSupported: stringList(body['token_endpoint_auth_methods_supported'], 'token_endpoint_auth_methods_supported', where),
    clientIdMetadataDocumentSupported: flag('client_id_metadata_document_supported'),
    issParameterSupported: flag('authorization_response_iss_parameter_supported'),
  };
}

/**
 * A 2025-03-26 server publishes no resource metadata: its origin is the
 * authorization server, with RFC 8414 metadata at the root or, failing that,
 * the default endpoints /authorize, /token and /register.
 */
export async function legacyAuthServer(serverUrl: URL, ctx: FetchContext): Promise<AuthServerMetadata> {
  const issuer = serverUrl.origin;
  const found = await discoverAuthServer(issuer, ctx);
  if (found !== undefined) return found;
  return {
    issuer,
    authorizationEndpoint: `${issuer}/authorize`,
    tokenEndpoint: `${issuer}/token`,
    registrationEndpoint: `${issuer}/register`,
    scopesSupported: undefined,
    grantTypesSupported: undefined,
    codeChallengeMethodsSupported: ['S256'],
    tokenEndpointAuthMethodsSupported: undefined,
    clientIdMetadataDocumentSupported: false,
    issParameterSupported: false,
  };
}
