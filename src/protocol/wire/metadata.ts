import type { Icon, ServerCapabilities } from '../../wire-types/index.js';
import { LATEST_LEGACY_VERSION, type ProtocolVersion } from './versions.js';

/** Everything the server says about itself; `initialize` and `server/discover` read only this. */
export interface McpServerMetadata {
  name: string;
  version: string;
  protocolVersion: ProtocolVersion;
  capabilities: ServerCapabilities;
  /** What `server/discover` declares when it differs from `capabilities` (extensions that exist only in 2026-07-28). */
  modernCapabilities?: ServerCapabilities;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  instructions?: string;
}

export interface MetadataInput {
  name: string;
  version: string;
  title?: string | undefined;
  description?: string | undefined;
  websiteUrl?: string | undefined;
  icons?: Icon[] | undefined;
  instructions?: string | undefined;
  capabilities: ServerCapabilities;
  modernCapabilities?: ServerCapabilities | undefined;
  protocolVersion?: ProtocolVersion;
}

/** The one builder of server metadata. */
export function buildServerMetadata(input: MetadataInput): McpServerMetadata {
  const metadata: McpServerMetadata = {
    name: input.name,
    version: input.version,
    protocolVersion: input.protocolVersion ?? LATEST_LEGACY_VERSION,
    capabilities: input.capabilities,
  };
  if (input.modernCapabilities !== undefined) metadata.modernCapabilities = input.modernCapabilities;
  if (input.title !== undefined) metadata.title = input.title;
  if (input.description !== undefined) metadata.description = input.description;
  if (input.websiteUrl !== undefined) metadata.websiteUrl = input.websiteUrl;
  if (input.icons !== undefined) metadata.icons = input.icons;
  if (input.instructions !== undefined) metadata.instructions = input.instructions;
  return metadata;
}

/** `serverInfo` as the wire wants it. */
export function serverInfoOf(metadata: McpServerMetadata): Record<string, unknown> {
  const info: Record<string, unknown> = { name: metadata.name, version: metadata.version };
  if (metadata.title !== undefined) info['title'] = metadata.title;
  if (metadata.description !== undefined) info['description'] = metadata.description;
  if (metadata.websiteUrl !== undefined) info['websiteUrl'] = metadata.websiteUrl;
  if (metadata.icons !== undefined) info['icons'] = metadata.icons;
  return info;
}
