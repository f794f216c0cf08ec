import { isPlainObject } from '../../jsonrpc/message.js';
import { META_PROTOCOL_VERSION } from './meta-keys.js';
import { isLegacyVersion } from './versions.js';
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
