/** RFC 8414 authorization server metadata: where an issuer's JWKS is. */

/** The metadata URLs of an issuer, in the order MCP clients try them. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    ...(path === '' ? [] : [`${url.origin}${path}/.well-known/openid-configuration`]),
  ];
}

/** Fetches the issuer's metadata (its `issuer` must be identical) and returns its `jwks_uri`. */
export async function discoverJwksUri(issuer: string, timeoutMs: number): Promise<string> {
  const metadata = await fetchIssuerMetadata(issuer, timeoutMs);
  const jwks = metadata['jwks_uri'];
  if (typeof jwks !== 'string' || !URL.canParse(jwks)) throw new Error(`The metadata of issuer ${issuer} has no jwks_uri`);
  return jwks;
}

export async function fetchIssuerMetadata(issuer: string, timeoutMs: number): Promise<Record<string, unknown>> {
  for (const url of metadataUrls(issuer)) {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    if (response.status === 404) {
      await response.body?.cancel();
      continue;
    }
    if (!response.ok) throw new Error(`Authorization server metadata ${url} answered ${response.status}`);
    const metadata = (await response.json()) as Record<string, unknown>;
    // RFC 8414 §3.3: a document for another issuer must not be used.
    if (metadata['issuer'] !== issuer) throw new Error(`Authorization server metadata ${url} names issuer ${String(metadata['issuer'])}, not ${issuer}`);
    return metadata;
  }
  throw new Error(`No authorization server metadata found for issuer ${issuer}`);
}
