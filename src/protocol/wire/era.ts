import { isPlainObject } from '../../jsonrpc/message.js';
import { META_PROTOCOL_VERSION } from './meta-keys.js';
import { isLegacyVersion, LATEST_LEGACY_VERSION } from './versions.js';
import type { Era } from './method-facts.js';

/**
 * The era of one inbound message that reached no negotiated session: modern
 * (2026-07-28) when its `params._meta` names a protocol version or the
 * transport's version header (HTTP `MCP-Protocol-Version`) is not a legacy
 * revision; legacy otherwise. The HTTP engine routes by it and the protocol
 * serves by it: one rule, decided here.
 */
export function eraOf(message: unknown, header: string | undefined): Era {
  return paramsEra(isPlainObject(message) ? message['params'] : undefined, header);
}

/** `eraOf` for a message whose params are already at hand. */
export function paramsEra(params: unknown, header: string | undefined): Era {
  if (header !== undefined && !isLegacyVersion(header)) return 'modern';
  const meta = isPlainObject(params) ? params['_meta'] : undefined;
  return isPlainObject(meta) && meta[META_PROTOCOL_VERSION] !== undefined ? 'modern' : 'legacy';
}

/** A payload (one message or a batch) is modern when any message in it is. */
export function payloadEra(payload: unknown, header: string | undefined): Era {
  if (!Array.isArray(payload)) return eraOf(payload, header);
  if (header !== undefined && !isLegacyVersion(header)) return 'modern';
  for (const item of payload) if (eraOf(item, undefined) === 'modern') return 'modern';
  return 'legacy';
}

/**
 * The revision a message outside a negotiated session is served in, by the
 * same rule: a modern message's `_meta` version, else the legacy header, else
 * the latest legacy revision. `negotiates` (`initialize`): the revision the
 * client asks for. Never throws (a malformed modern message says undefined).
 */
export function paramsVersion(params: unknown, header: string | undefined, negotiates = false): string | undefined {
  if (paramsEra(params, header) === 'modern') {
    const meta = isPlainObject(params) ? params['_meta'] : undefined;
    const version = isPlainObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
    return typeof version === 'string' ? version : header;
  }
  if (negotiates && isPlainObject(params) && typeof params['protocolVersion'] === 'string') return params['protocolVersion'];
  return header !== undefined && isLegacyVersion(header) ? header : LATEST_LEGACY_VERSION;
}
