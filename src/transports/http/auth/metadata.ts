/** The protected resource metadata document (RFC 9728 §2) and its well-known answers. */
import { methodNotAllowed } from '../errors.js';
import type { HttpRequest, HttpResponse } from '../types.js';
import { metadataPaths } from './resource.js';
import { scopeUnion } from './scopes.js';
import type { AuthOptions } from './types.js';
import { utf8Length } from '../../../util/bytes.js';

/** `resource`, `authorization_servers`, `scopes_supported` (never `offline_access`), `bearer_methods_supported`. */
export function metadataDocument(resource: string, options: AuthOptions): Record<string, unknown> {
  const document: Record<string, unknown> = {
    resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
  };
  if (options.scopesSupported !== undefined) document['scopes_supported'] = scopeUnion(options.scopesSupported);
  if (options.resourceName !== undefined) document['resource_name'] = options.resourceName;
  if (options.resourceDocumentation !== undefined) document['resource_documentation'] = options.resourceDocumentation;
  return document;
}

/**
 * Serves the document at the path-aware well-known URL and at the root, to any
 * origin (it is public: browser clients must read it) and cacheable. It is
 * answered before the DNS-rebinding and token checks: it holds nothing secret.
 */
export function metadataResponder(resource: string, document: Record<string, unknown>, maxAgeSeconds: number): (request: HttpRequest) => HttpResponse | undefined {
  const { pathAware, root } = metadataPaths(resource);
  const body = JSON.stringify(document);
  const headers: Readonly<Record<string, string>> = {
    'content-type': 'application/json',
    'cache-control': `public, max-age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'access-control-allow-origin': '*',
  };
  return (request) => {
    if (request.path !== pathAware && request.path !== root) return undefined;
    switch (request.method) {
      case 'GET':
        return { status: 200, headers: { ...headers }, body };
      case 'HEAD':
        return { status: 200, headers: { ...headers, 'content-length': String(utf8Length(body)) } };
      case 'OPTIONS':
        return {
          status: 204,
          headers: {
            'access-control-allow-origin': '*',
            'access-control-allow-methods': 'GET, HEAD, OPTIONS',
            'access-control-allow-headers': 'mcp-protocol-version',
            'access-control-max-age': '86400',
          },
        };
      default: {
        const refused = methodNotAllowed(request.method, 'GET, HEAD, OPTIONS');
        refused.headers['access-control-allow-origin'] = '*';
        return refused;
      }
    }
  };
}

/** The well-known paths, for hosts that route only the MCP path to mcpkit (Express). */
export function wellKnownPaths(resource: string): string[] {
  const { pathAware, root } = metadataPaths(resource);
  return pathAware === root ? [root] : [pathAware, root];
}

