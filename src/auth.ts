/**
 * `mcpkit/auth`: token verifiers for the HTTP adapters' `auth` option (docs/auth.md).
 * `jwtVerifier` needs the optional peer dependency `jose` (>= 6), loaded on first use;
 * `introspectionVerifier` needs nothing.
 */
export { jwtVerifier, type JwtVerifierOptions } from './auth/jwt.js';
export { introspectionVerifier, type IntrospectionVerifierOptions } from './auth/introspection.js';
export { principalFromClaims } from './auth/jwt-claims.js';
export { fetchIssuerMetadata } from './auth/discovery.js';
export { canonicalResource, metadataUrl } from './transports/http/auth/resource.js';
export { challengeHeader, type Challenge } from './transports/http/auth/challenge.js';
export { InvalidTokenError, type AuthOptions, type Principal, type TokenVerifier, type VerifyTarget } from './transports/http/auth/types.js';
