import { invalidParams } from '../errors.js';
import { optionalObject, legacyOnly, modernOnly, type MethodEntry } from './shared.js';
import { serverInfoOf } from '../metadata.js';
import type { ClientCapabilities, Implementation, ServerCapabilities } from '../types.js';
import { isLegacyVersion, negotiateLegacyVersion, SUPPORTED_VERSIONS, type ProtocolVersion } from '../versions.js';
import { acceptedModernVersions, legacySession } from '../era.js';
import { withTasksExtension } from '../tasks/runtime.js';
import { refuseWithoutSession } from './subscriptions.js';

export const initialize: MethodEntry = {
  available: legacyOnly,
  handle(params, _context, handler) {
    const accepted = (handler.deps.options?.protocolVersions ?? SUPPORTED_VERSIONS).filter(isLegacyVersion) as ProtocolVersion[];
    if (accepted.length === 0) {
      // A modern-only server names what it speaks: legacy clients cannot fall forward on their own.
      const supported = acceptedModernVersions(handler);
      throw invalidParams(`Unsupported protocol version: this server does not accept initialize; it speaks ${supported.join(', ')} with per-request _meta`, {
        supported,
        requested: params['protocolVersion'],
      });
    }
    const protocolVersion = negotiateLegacyVersion(params['protocolVersion'], accepted);
    const clientInfo = optionalObject(params, 'clientInfo') as Implementation | undefined;
    const clientCapabilities = (optionalObject(params, 'capabilities') ?? {}) as ClientCapabilities;
    const metadata = handler.deps.getMetadata();
    if (!handler.stateless) {
      handler.session = legacySession(protocolVersion, { info: clientInfo, capabilities: clientCapabilities }, metadata.capabilities);
    }
    const result: Record<string, unknown> = {
      protocolVersion,
      capabilities: handler.stateless ? withoutSubscribe(metadata.capabilities) : metadata.capabilities,
      serverInfo: serverInfoOf(metadata),
    };
    if (metadata.instructions !== undefined) result['instructions'] = metadata.instructions;
    return result;
  },
};

/** A stateless endpoint keeps no subscriptions, so it does not offer them. */
function withoutSubscribe(capabilities: ServerCapabilities): ServerCapabilities {
  if (capabilities.resources?.subscribe === undefined) return capabilities;
  const { subscribe: _dropped, ...resources } = capabilities.resources;
  return { ...capabilities, resources };
}

/** Results that must be exactly `{}`: a fresh object each time so nobody can taint a shared one. */
export const ping: MethodEntry = {
  available: legacyOnly,
  handle: () => ({}),
};

export const setLevel: MethodEntry = {
  available: (handler, era) => legacyOnly(handler, era) && handler.deps.getMetadata().capabilities.logging !== undefined,
  handle(params, context, handler) {
    // The shared stateless connection would apply one client's level to every client.
    refuseWithoutSession(handler, context.method);
    handler.setSessionLogLevel(params['level']);
    return {};
  },
};

export const discover: MethodEntry = {
  available: modernOnly,
  handle(_params, _context, handler) {
    const metadata = handler.deps.getMetadata();
    const result: Record<string, unknown> = {
      supportedVersions: acceptedModernVersions(handler),
      capabilities: withTasksExtension(metadata.capabilities, handler),
    };
    if (metadata.instructions !== undefined) result['instructions'] = metadata.instructions;
    return result;
  },
};
