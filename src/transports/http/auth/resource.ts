/** The canonical resource URL (RFC 8707 §2) and where its metadata lives (RFC 9728 §3.1). */

export const METADATA_WELL_KNOWN = '/.well-known/oauth-protected-resource';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The canonical form of a resource URL: lower-case scheme and host, no default
 * port, no trailing slash (except the bare origin's), no fragment. Throws a
 * TypeError naming the problem when `value` cannot identify an MCP server.
 */
export function canonicalResource(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`auth.resource: "${value}" is not an absolute URL (e.g. https://mcp.example.com/mcp)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`auth.resource: "${value}" must be an https URL`);
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    throw new TypeError(`auth.resource: "${value}" must use https (plain http is only accepted for loopback hosts)`);
  }
  if (value.includes('#')) throw new TypeError(`auth.resource: "${value}" must not contain a fragment`);
  if (url.search !== '') throw new TypeError(`auth.resource: "${value}" must not contain a query string`);
  if (url.username !== '' || url.password !== '') throw new TypeError(`auth.resource: "${value}" must not contain credentials`);
  return `${url.protocol}//${url.host}${trimSlash(url.pathname)}`;
}

/**
 * Whether a token audience names this resource: compared canonically, so
 * `HTTPS://MCP.example.com/mcp/` matches `https://mcp.example.com/mcp`.
 */
export function sameResource(audience: string, canonical: string): boolean {
  if (audience === canonical) return true;
  try {
    return canonicalResource(audience) === canonical;
  } catch {
    return false;
  }
}

/** The path of the resource URL without a trailing slash ('' for the origin). */
export function resourcePath(canonical: string): string {
  return trimSlash(new URL(canonical).pathname);
}

/** Where clients look for the metadata: path-aware first, then the root (both are served). */
export function metadataPaths(canonical: string): { pathAware: string; root: string } {
  const path = resourcePath(canonical);
  return { pathAware: `${METADATA_WELL_KNOWN}${path}`, root: METADATA_WELL_KNOWN };
}

/** The absolute URL named in `resource_metadata` of every challenge (the path-aware one). */
export function metadataUrl(canonical: string): string {
  return `${new URL(canonical).origin}${metadataPaths(canonical).pathAware}`;
}

/** Whether the resource's host is a loopback name (its port is then checked against the bound one). */
export function isLoopbackResource(canonical: string): boolean {
  return LOOPBACK.has(new URL(canonical).hostname);
}

export function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : path === '/' ? '' : path;
}
