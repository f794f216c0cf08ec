import { invalidParams } from '../wire/errors.js';
import { isLoggingLevel } from '../wire/logging.js';
import { serverInfoOf } from '../wire/metadata.js';
import type { ClientCapabilities, Implementation, ServerCapabilities } from '../../wire-types/index.js';
import { negotiateLegacyVersion } from '../wire/versions.js';
import { LEGACY_ONLY, MODERN_ONLY } from '../wire/method-facts.js';
import { negotiatedRecord } from '../wire/session-record.js';
import { declares, optionalObject, type RecordUpdate, type RequestMethod } from './shared.js';
import { refuseWithoutSession } from './subscriptions.js';

/** `initialize` answers with what it negotiated; on a session the dispatcher keeps it as the session's record. */
export const initialize: RequestMethod = {
  method: 'initialize',
  kind: 'request',
  eras: LEGACY_ONLY,
  negotiates: true,
  changesRecord: true,
  // The spec forbids cancelling it: not tracking it keeps idle sessions small.
  cancellable: false,
  handle(params, ctx): RecordUpdate {
    const server = ctx.server;
    const accepted = server.legacyVersions;
    if (accepted.length === 0) {
      // A modern-only server names what it speaks: legacy clients cannot fall forward on their own.
      const supported = server.modernVersions;
      throw invalidParams(`Unsupported protocol version: this server does not accept initialize; it speaks ${supported.join(', ')} with per-request _meta`, {
        supported,
        requested: params['protocolVersion'],
      });
    }
    const protocolVersion = negotiateLegacyVersion(params['protocolVersion'], accepted);
    const clientInfo = optionalObject(params, 'clientInfo') as Implementation | undefined;
    const clientCapabilities = (optionalObject(params, 'capabilities') ?? {}) as ClientCapabilities;
    const metadata = server.getMetadata();
    const stateless = ctx.session === undefined;
    const result: Record<string, unknown> = {
      protocolVersion,
      capabilities: stateless ? withoutSubscribe(metadata.capabilities) : metadata.capabilities,
      serverInfo: serverInfoOf(metadata),
    };
    if (metadata.instructions !== undefined) result['instructions'] = metadata.instructions;
    // The shared stateless connection negotiates nothing later requests inherit.
    const change = stateless ? undefined : { type: 'negotiated' as const, record: negotiatedRecord(protocolVersion, clientInfo, clientCapabilities, metadata.capabilities) };
    return { result, change };
  },
};

/** A stateless endpoint keeps no subscriptions, so it does not offer them. */
function withoutSubscribe(capabilities: ServerCapabilities): ServerCapabilities {
  if (capabilities.resources?.subscribe === undefined) return capabilities;
  const { subscribe: _dropped, ...resources } = capabilities.resources;
  return { ...capabilities, resources };
}

/** Results that must be exactly `{}`: a fresh object each time so nobody can taint a shared one. */
export const ping: RequestMethod = {
  method: 'ping',
  kind: 'request',
  eras: LEGACY_ONLY,
  handle: () => ({}),
};

export const setLevel: RequestMethod = {
  method: 'logging/setLevel',
  kind: 'request',
  eras: LEGACY_ONLY,
  gate: declares('logging'),
  changesRecord: true,
  handle(params, ctx): RecordUpdate {
    // The shared stateless connection would apply one client's level to every client.
    refuseWithoutSession(ctx);
    const level = params['level'];
    if (!isLoggingLevel(level)) throw invalidParams(`Invalid params: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency`);
    return { result: {}, change: { type: 'logLevel', level } };
  },
};

export const discover: RequestMethod = {
  method: 'server/discover',
  kind: 'request',
  eras: MODERN_ONLY,
  cacheable: true,
  handle(_params, ctx) {
    const metadata = ctx.server.getMetadata();
    const result: Record<string, unknown> = {
      supportedVersions: ctx.server.modernVersions,
      capabilities: metadata.modernCapabilities ?? metadata.capabilities,
    };
    if (metadata.instructions !== undefined) result['instructions'] = metadata.instructions;
    return result;
  },
};

