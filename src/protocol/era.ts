import { JsonRpcProtocolError } from '../jsonrpc/errors.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION, META_SERVER_INFO } from './meta-keys.js';
import type { MessageExtra } from './connection.js';
import type { InputBroker } from './context.js';
import { McpErrorCode } from './codes.js';
import { invalidParams } from './errors.js';
import type { McpProtocolHandler } from './handler.js';
import { isLoggingLevel } from './logging.js';
import { contentDowngrade } from './downgrade.js';
import { createMrtrBroker } from './mrtr.js';
import { checkStandardHeaders } from './routing-headers.js';
import { serverInfoOf, type McpServerMetadata } from './metadata.js';
import type { ClientCapabilities, Implementation, LoggingLevel, ServerCapabilities } from './types.js';
import { isLegacyVersion, LATEST_LEGACY_VERSION, MODERN_VERSIONS, type ProtocolVersion } from './versions.js';
import { isPlainObject } from '../jsonrpc/message.js';


/** The results a client may cache in 2026-07-28; they carry `ttlMs` and `cacheScope`. */
export const CACHEABLE_METHODS = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'server/discover']);

export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** Who is asking, in which revision: one shape for both eras. */
export interface EraInfo {
  era: 'legacy' | 'modern';
  version: ProtocolVersion;
  /** `ctx.client`: who is asking, and what it declared. */
  client: { readonly info: Implementation | undefined; readonly capabilities: ClientCapabilities };
  logLevel: LoggingLevel | undefined;
  /** Modern requests carry out client requests as Multi Round-Trip Requests. */
  broker: InputBroker | undefined;
  /** Reshapes a method's result for this revision. */
  finalize(method: string, result: unknown, handler: McpProtocolHandler): unknown;
}

const identity = (_method: string, result: unknown): unknown => result;
const EMPTY_CAPABILITIES: ClientCapabilities = Object.freeze({});


/** Whether one inbound message would be served as a 2026-07-28 request (the test `resolveEra` applies). */
export function isModernMessage(handler: McpProtocolHandler, message: unknown, header: string | undefined): boolean {
  if (handler.session !== undefined) return false;
  const params = isPlainObject(message) ? message['params'] : undefined;
  const meta = isPlainObject(params) ? params['_meta'] : undefined;
  return (isPlainObject(meta) && meta[META_PROTOCOL_VERSION] !== undefined) || (header !== undefined && !isLegacyVersion(header));
}

/**
 * Decides the era of one request. A connection that negotiated with
 * `initialize` stays legacy; otherwise a request carrying the 2026-07-28
 * `_meta` (or a modern version header) is served statelessly, validated in the
 * spec's order: missing fields (-32602), header mismatch (-32020), unsupported
 * version (-32022).
 */
export function resolveEra(handler: McpProtocolHandler, method: string, params: Record<string, unknown>, extra: MessageExtra): EraInfo {
  const meta = params['_meta'];
  const header = extra.protocolVersion;
  const metaVersion = isPlainObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  const modern = handler.session === undefined && (metaVersion !== undefined || (header !== undefined && !isLegacyVersion(header)));
  if (!modern) return legacyEra(handler, header);

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
  const accepted = acceptedModernVersions(handler);
  if (!accepted.includes(metaVersion)) {
    throw new JsonRpcProtocolError(McpErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version "${metaVersion}"; this server supports ${accepted.join(', ')}`, {
      supported: accepted,
      requested: metaVersion,
    });
  }
  // HTTP only: the routing headers must agree with the body (SEP-2243).
  const headers = extra.requestInfo?.headers;
  if (headers !== undefined) checkStandardHeaders(method, params, headers);
  const rawInfo = meta[META_CLIENT_INFO];
  const clientInfo = isPlainObject(rawInfo) ? (rawInfo as unknown as Implementation) : undefined;
  const clientCapabilities = meta[META_CLIENT_CAPABILITIES] as ClientCapabilities;
  const logLevel = meta[META_LOG_LEVEL];
  return {
    era: 'modern',
    version: metaVersion as ProtocolVersion,
    client: { info: clientInfo, capabilities: clientCapabilities },
    logLevel: isLoggingLevel(logLevel) ? logLevel : undefined,
    broker: createMrtrBroker(handler, method, params, extra.authInfo),
    finalize: finalizeModern,
  };
}

export function acceptedModernVersions(handler: McpProtocolHandler): string[] {
  const accepted = handler.deps.options?.protocolVersions;
  return (accepted ?? MODERN_VERSIONS).filter((v) => !isLegacyVersion(v));
}

const NO_CLIENT = Object.freeze({ info: undefined, capabilities: EMPTY_CAPABILITIES });

/**
 * What `initialize` negotiated, built once: it is both the session record and
 * the era of every later request on the connection (one object per session).
 */
export function legacySession(
  version: ProtocolVersion,
  client: EraInfo['client'],
  serverCapabilities: ServerCapabilities,
): EraInfo & { protocolVersion: ProtocolVersion; serverCapabilities: ServerCapabilities } {
  return { era: 'legacy', version, protocolVersion: version, client, serverCapabilities, logLevel: undefined, broker: undefined, finalize: contentDowngrade(version) ?? identity };
}

function legacyEra(handler: McpProtocolHandler, header: string | undefined): EraInfo {
  if (handler.session !== undefined) return handler.session;
  const cached = handler.legacyEra;
  if (cached !== undefined && handler.legacyEraHeader === header) return cached;
  const version = isLegacyVersion(header) ? header : LATEST_LEGACY_VERSION;
  const info: EraInfo = { era: 'legacy', version, client: NO_CLIENT, logLevel: undefined, broker: undefined, finalize: contentDowngrade(version) ?? identity };
  // A stateful connection asks once before `initialize`: only the shared stateless one keeps it.
  if (handler.stateless) {
    handler.legacyEra = info;
    handler.legacyEraHeader = header;
  }
  return info;
}

function finalizeModern(method: string, result: unknown, handler: McpProtocolHandler): unknown {
  if (!isPlainObject(result)) return result;
  const out: Record<string, unknown> = { ...result };
  if (out['resultType'] === undefined) out['resultType'] = 'complete';
  if (out['resultType'] === 'complete' && CACHEABLE_METHODS.has(method)) {
    const hint = cacheHintFor(handler, method, result);
    if (out['ttlMs'] === undefined) out['ttlMs'] = hint.ttlMs;
    if (out['cacheScope'] === undefined) out['cacheScope'] = hint.cacheScope;
  }
  if (handler.deps.options?.serverInfoInMeta !== false) {
    const serverMeta = serverInfoMeta(handler.deps.getMetadata());
    out['_meta'] = isPlainObject(out['_meta']) ? { ...out['_meta'], ...serverMeta } : serverMeta;
  }
  return out;
}

/** `{ "io.modelcontextprotocol/serverInfo": … }`, built once per metadata (which is itself cached). */
const serverInfoMetas = new WeakMap<McpServerMetadata, Readonly<Record<string, unknown>>>();

function serverInfoMeta(metadata: McpServerMetadata): Readonly<Record<string, unknown>> {
  let meta = serverInfoMetas.get(metadata);
  if (meta === undefined) {
    meta = Object.freeze({ [META_SERVER_INFO]: Object.freeze(serverInfoOf(metadata)) });
    serverInfoMetas.set(metadata, meta);
  }
  return meta;
}

/** Per-method hints from the server options; a resource's own hint travels on its read result. */
function cacheHintFor(handler: McpProtocolHandler, method: string, _result: Record<string, unknown>): CacheHint {
  const hints = handler.deps.options?.cacheHints;
  return hints?.[method] ?? hints?.['default'] ?? { ttlMs: 0, cacheScope: 'private' };
}

