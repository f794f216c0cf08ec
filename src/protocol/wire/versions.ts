/**
 * Every protocol revision mcpkit serves, and the per-revision differences, in
 * one table. Everything else asks this file.
 */

export const LEGACY_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const SUPPORTED_VERSIONS = [...LEGACY_VERSIONS, ...MODERN_VERSIONS] as const;

export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];
export type ModernVersion = (typeof MODERN_VERSIONS)[number];
export type ProtocolVersion = LegacyVersion | ModernVersion;

export const LATEST_LEGACY_VERSION: LegacyVersion = '2025-11-25';
export const LATEST_VERSION: ProtocolVersion = '2026-07-28';
/** What a Streamable HTTP request without `MCP-Protocol-Version` is assumed to speak. */
export const DEFAULT_HTTP_VERSION: LegacyVersion = '2025-03-26';

export interface Revision {
  version: ProtocolVersion;
  era: 'legacy' | 'modern';
  /** Code for "resource not found": -32002 before 2026-07-28, -32602 from it. */
  resourceNotFoundCode: number;
  /** What appeared in a revision: older clients must not be sent it (or asked for it). */
  features: {
    /** Audio content blocks (2025-03-26). */
    audio: boolean;
    /** `resource_link` content blocks (2025-06-18). */
    resourceLinks: boolean;
    /** SSE streams open with an empty-`data` priming event (SEP-1699); older clients cannot parse it. */
    ssePriming: boolean;
    /** Sampling with `includeContext` needs the client's `sampling.context` capability (2025-11-25). */
    samplingContextCapability: boolean;
  };
}

const FROM_2025_11_25 = { audio: true, resourceLinks: true, ssePriming: true, samplingContextCapability: true };

const table: Record<ProtocolVersion, Revision> = {
  '2024-11-05': rev('2024-11-05', 'legacy', {}),
  '2025-03-26': rev('2025-03-26', 'legacy', { audio: true }),
  '2025-06-18': rev('2025-06-18', 'legacy', { audio: true, resourceLinks: true }),
  '2025-11-25': rev('2025-11-25', 'legacy', FROM_2025_11_25),
  '2026-07-28': rev('2026-07-28', 'modern', FROM_2025_11_25),
};

function rev(version: ProtocolVersion, era: Revision['era'], features: Partial<Revision['features']>): Revision {
  return {
    version,
    era,
    resourceNotFoundCode: era === 'modern' ? -32602 : -32002,
    features: { audio: false, resourceLinks: false, ssePriming: false, samplingContextCapability: false, ...features },
  };
}

export function isLegacyVersion(version: unknown): version is LegacyVersion {
  return (LEGACY_VERSIONS as readonly unknown[]).includes(version);
}

export function revision(version: ProtocolVersion): Revision {
  return table[version];
}

/** Whether a stream of this revision (as a transport names it; unknown names: no) opens with a priming event. */
export function definesSsePriming(version: string | undefined): boolean {
  return version !== undefined && Object.hasOwn(table, version) && table[version as ProtocolVersion].features.ssePriming;
}

/** Legacy negotiation: the requested version when we speak it, else our latest legacy one. */
export function negotiateLegacyVersion(requested: unknown, accepted: readonly ProtocolVersion[] = LEGACY_VERSIONS): LegacyVersion {
  // Our own constant, not the parsed string: every session keeps it.
  if (isLegacyVersion(requested)) for (const version of accepted) if (version === requested) return version;
  const legacy = accepted.filter(isLegacyVersion);
  return legacy[legacy.length - 1] ?? LATEST_LEGACY_VERSION;
}
