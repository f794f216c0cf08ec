import type { AuthOptions } from './auth/types.js';
import type { CorsOptions, HttpClusterOptions, HttpEngineOptions, LegacySseOptions, ServerCardOptions } from './types.js';
import { keysOf, refuseUnknownKeys } from '../../util/known-keys.js';

/** Reading numeric options: a limit is a positive number, or the default when absent. */
export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

export const ENGINE_KEYS = keysOf<HttpEngineOptions>({
  path: true, responseMode: true, stateless: true, maxBodyBytes: true, maxSessions: true, maxSessionsPerClient: true,
  maxRequestsPerSession: true, maxInflightBytesPerClient: true, sessionIdleTimeoutMs: true, cluster: true,
  eventStore: true, maxStreamBufferBytes: true, keepAliveMs: true, dnsRebindingProtection: true, allowedHosts: true,
  allowedOrigins: true, cors: true, auth: true, authenticate: true, legacySse: true, serverCard: true, trustProxy: true, forwardedHeader: true,
});
const AUTH_KEYS = keysOf<AuthOptions>({
  resource: true, authorizationServers: true, scopesSupported: true, requiredScopes: true, verify: true, implies: true,
  filterLists: true, resourceName: true, resourceDocumentation: true, metadataMaxAgeSeconds: true,
});
const CORS_KEYS = keysOf<CorsOptions>({ maxAgeSeconds: true });
const LEGACY_SSE_KEYS = keysOf<LegacySseOptions>({ ssePath: true, messagesPath: true, maxInflightBytes: true });
const SERVER_CARD_KEYS = keysOf<ServerCardOptions>({ name: true, url: true, repository: true, maxAgeSeconds: true });
const CLUSTER_KEYS = keysOf<HttpClusterOptions>({ sessions: true, channel: true });

/**
 * Refuses unknown keys in HTTP options and in the objects nested in them (`auth`, `cors`,
 * `legacySse`, `serverCard`, `cluster`). `where` names the call; `extra` are the adapter's own keys.
 */
export function checkEngineKeys(options: unknown, where: string, extra: readonly string[] = []): void {
  refuseUnknownKeys(options, extra.length === 0 ? ENGINE_KEYS : [...ENGINE_KEYS, ...extra], where);
  if (typeof options !== 'object' || options === null) return;
  const o = options as Record<string, unknown>;
  refuseUnknownKeys(o['auth'], AUTH_KEYS, `the auth option of ${where}`);
  refuseUnknownKeys(o['cors'], CORS_KEYS, `the cors option of ${where}`);
  refuseUnknownKeys(o['legacySse'], LEGACY_SSE_KEYS, `the legacySse option of ${where}`);
  refuseUnknownKeys(o['serverCard'], SERVER_CARD_KEYS, `the serverCard option of ${where}`);
  refuseUnknownKeys(o['cluster'], CLUSTER_KEYS, `the cluster option of ${where}`);
}
