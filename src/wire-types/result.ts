/** What every result carries, and the 2026-07-28 cache hints of the cacheable ones. */
import type { Meta } from './content.js';

/**
 * Any result. Open (as in the spec): on the 2026-07-28 path results also carry `resultType`,
 * cache hints and `_meta`, and a reader may look at any field a newer revision adds.
 */
export interface McpResult {
  _meta?: Meta;
  /** 2026-07-28: `complete` (absent means complete), `input_required` (MRTR), or a kind an extension adds. */
  resultType?: string;
  [key: string]: unknown;
}

/** 2026-07-28 cache hints on cacheable results (the lists, `resources/read`, `server/discover`). */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

export interface CompleteResult extends McpResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}
