import { ClientView, NO_CLIENT } from '../extensions.js';
import { JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/message.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION } from '../wire/meta-keys.js';
import type { MessageExtra } from '../connection.js';
import { McpErrorCode } from '../wire/codes.js';
import { invalidParams } from '../wire/errors.js';
import { isLoggingLevel } from '../wire/logging.js';
import { MrtrBroker } from '../request/mrtr.js';
import { checkStandardHeaders } from '../wire/routing-headers.js';
import type { EraInfo } from '../scopes/era-info.js';
import type { ServerScope } from '../scopes/server-scope.js';
import { finalizerFor, type SessionScope } from '../scopes/session-scope.js';
import type { Implementation } from '../../wire-types/index.js';
import { isLegacyVersion, LATEST_LEGACY_VERSION, LEGACY_VERSIONS, MODERN_VERSIONS, type ProtocolVersion } from '../wire/versions.js';
import { paramsEra } from '../wire/era.js';
import type { MethodFacts } from '../wire/method-facts.js';

export type { EraInfo } from '../scopes/era-info.js';

export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}


/** A legacy request outside a negotiated session depends only on its revision: one frozen object per revision. */
const SESSIONLESS: Readonly<Record<string, EraInfo>> = Object.freeze(
  Object.fromEntries(
    LEGACY_VERSIONS.map((version) => [version, Object.freeze({ era: 'legacy', version, client: NO_CLIENT, logLevel: undefined, broker: undefined, finalize: finalizerFor(version) })]),
  ),
);

/**
 * Decides the era of one request. A session that negotiated with `initialize`
 * stays legacy; otherwise `eraOf` decides, and a modern request is validated
 * in the spec's order: missing fields (-32602), header mismatch (-32020),
 * unsupported version (-32022), routing headers (-32020).
 */
export function resolveEra(
  server: ServerScope,
  session: SessionScope | undefined,
  method: MethodFacts,
  params: Record<string, unknown>,
  extra: MessageExtra,
): EraInfo {
  if (session?.negotiated === true) return session;
  const header = extra.protocolVersion;
  if (paramsEra(params, header) === 'legacy') return SESSIONLESS[isLegacyVersion(header) ? header : LATEST_LEGACY_VERSION]!;

  const meta = params['_meta'];
  const metaVersion = isPlainObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  if (!isPlainObject(meta) || typeof metaVersion !== 'string' || !isPlainObject(meta[META_CLIENT_CAPABILITIES])) {
    throw invalidParams(
      `Invalid params: a ${MODERN_VERSIONS[0]} request must carry params._meta["${META_PROTOCOL_VERSION}"] (string) and params._meta["${META_CLIENT_CAPABILITIES}"] (object)`,
    );
  }
  if (header !== undefined && header !== metaVersion) {
    throw new JsonRpcProtocolError(
      McpErrorCode.HeaderMismatch,
      `Header mismatch: MCP-Protocol-Version is "${header}" but params._meta["${META_PROTOCOL_VERSION}"] is "${metaVersion}"`,
    );
  }
  const accepted = server.modernVersions;
  if (!accepted.includes(metaVersion)) {
    throw new JsonRpcProtocolError(McpErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version "${metaVersion}"; this server supports ${accepted.join(', ')}`, {
      supported: [...accepted],
      requested: metaVersion,
    });
  }
  // HTTP only: the routing headers must agree with the body (SEP-2243).
  const headers = extra.requestInfo?.headers;
  if (headers !== undefined) checkStandardHeaders(method.method, method.routingName, params, headers);
  const rawInfo = meta[META_CLIENT_INFO];
  const logLevel = meta[META_LOG_LEVEL];
  return {
    era: 'modern',
    version: metaVersion as ProtocolVersion,
    client: new ClientView(isPlainObject(rawInfo) ? (rawInfo as unknown as Implementation) : undefined, meta[META_CLIENT_CAPABILITIES]),
    logLevel: isLoggingLevel(logLevel) ? logLevel : undefined,
    // Only requests that may ask the client for input (tools, prompts, resources) get a broker.
    broker: method.asksClient === true ? new MrtrBroker(server.requestState, method.method, params, extra.authInfo) : undefined,
    finalize: finalizeModern,
  };
}

function finalizeModern(method: MethodFacts, result: unknown, server: ServerScope): unknown {
  if (!isPlainObject(result)) return result;
  // Object.assign, not a spread: a spread copy that then gets keys added became an object
  // JSON.stringify serialises slowly (~2 µs more per request). An own "__proto__" key keeps the
  // spread, which defines it as data where assign would set the prototype.
  const out: Record<string, unknown> = Object.hasOwn(result, '__proto__') ? { ...result } : Object.assign({}, result);
  if (out['resultType'] === undefined) out['resultType'] = 'complete';
  if (out['resultType'] === 'complete' && method.cacheable === true) {
    const hint = cacheHintFor(server, method);
    if (out['ttlMs'] === undefined) out['ttlMs'] = hint.ttlMs;
    if (out['cacheScope'] === undefined) out['cacheScope'] = hint.cacheScope;
  }
  if (server.results.serverInfoInMeta !== false) {
    const serverMeta = server.serverInfoMeta();
    out['_meta'] = isPlainObject(out['_meta']) ? { ...out['_meta'], ...serverMeta } : serverMeta;
  }
  return out;
}

const NO_HINT: CacheHint = Object.freeze({ ttlMs: 0, cacheScope: 'private' });

/** Per-method hints from the server options; a resource's own hint travels on its read result. */
function cacheHintFor(server: ServerScope, method: MethodFacts): CacheHint {
  const hints = server.results.cacheHints;
  return hints?.[method.method] ?? hints?.['default'] ?? NO_HINT;
}
