/** The protocol revisions the tests speak: one set of constants for every suite. */

/** The newest revision with the `initialize` handshake (legacy era). */
export const LEGACY = '2025-11-25';
/** The stateless revision: per-request `_meta`, no handshake (modern era). */
export const MODERN = '2026-07-28';
/** Every legacy revision, oldest first. */
export const LEGACY_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
