import type { AuthOptions } from './auth/types.js';
import type { CorsOptions, HttpClusterOptions, HttpEngineOptions, HttpLimits, HttpSecurityOptions, HttpSessionOptions, LegacySseOptions, ServerCardOptions } from './types.js';
import { refuseUnknownKeysIn, shapeOf, type KeyList, type KeyShape } from '../../util/known-keys.js';

/** Reading numeric options: a limit is a positive number, or the default when absent. */
export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

const AUTH_KEYS = shapeOf<AuthOptions>({
  resource: true, authorizationServers: true, scopesSupported: true, requiredScopes: true, verify: true, implies: true,
  filterLists: true, resourceName: true, resourceDocumentation: true, metadataMaxAgeSeconds: true,
});
const LIMIT_KEYS = shapeOf<HttpLimits>({ maxBodyBytes: true, maxSessions: true, maxSessionsPerClient: true, maxRequestsPerSession: true, maxInflightBytesPerClient: true });
const SECURITY_KEYS = shapeOf<HttpSecurityOptions>(
  { dnsRebindingProtection: true, allowedHosts: true, allowedOrigins: true, cors: true, trustProxy: true, forwardedHeader: true },
  { cors: shapeOf<CorsOptions>({ maxAgeSeconds: true }) },
);
const SESSION_KEYS = shapeOf<HttpSessionOptions>({ idleTimeoutMs: true, eventStore: true, cluster: true }, { cluster: shapeOf<HttpClusterOptions>({ sessions: true, channel: true }) });
const ENGINE_KEY_LIST = {
  path: true, responseMode: true, keepAliveMs: true, limits: true, security: true, legacySse: true, serverCard: true,
  stateless: true, sessions: true, auth: true, authenticate: true,
} as const satisfies KeyList<HttpEngineOptions>;
const ENGINE_NESTED = {
  limits: LIMIT_KEYS,
  security: SECURITY_KEYS,
  sessions: SESSION_KEYS,
  auth: AUTH_KEYS,
  legacySse: shapeOf<LegacySseOptions>({ ssePath: true, messagesPath: true, maxInflightBytes: true }),
  serverCard: shapeOf<ServerCardOptions>({ name: true, url: true, repository: true, maxAgeSeconds: true }),
};
export const ENGINE_KEYS: KeyShape = shapeOf<HttpEngineOptions>(ENGINE_KEY_LIST, ENGINE_NESTED);

/**
 * Refuses unknown keys in HTTP options, at every level (`limits.maxBodyByte`, `auth.requiredScope`),
 * naming the full path. `where` names the call; `extra` are the adapter's own keys.
 */
export function checkEngineKeys(options: unknown, where: string, extra: readonly string[] = []): void {
  refuseUnknownKeysIn(options, extra.length === 0 ? ENGINE_KEYS : { keys: [...ENGINE_KEYS.keys, ...extra], nested: ENGINE_NESTED }, where);
  const o = options as { stateless?: unknown; sessions?: unknown; auth?: unknown; authenticate?: unknown } | undefined;
  // TypeScript refuses these pairs; plain JavaScript is told here, before anything is built.
  if (o?.auth !== undefined && o.authenticate !== undefined) {
    throw new TypeError(`${where}: give either auth (OAuth resource server) or authenticate (your own check), not both`);
  }
  if (o?.stateless === true && o.sessions !== undefined) {
    throw new TypeError(`${where}: sessions cannot be combined with stateless: true (a stateless engine keeps no sessions to expire, resume or share; set stateless: false to serve sessions)`);
  }
  const sessions = o?.sessions as { idleTimeoutMs?: unknown; cluster?: unknown } | undefined;
  if (sessions?.cluster !== undefined && sessions.idleTimeoutMs !== undefined) {
    throw new TypeError(`${where}: sessions.idleTimeoutMs cannot be combined with sessions.cluster (the shared session store sets the idle expiry: its idleTimeoutMs option)`);
  }
}
