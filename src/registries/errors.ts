/**
 * @deprecated The error classes live in src/errors/ (the catalogue, docs/errors.md); this path
 * re-exports them for one release. Import them from `mcpkit`.
 */
export * from '../errors/classes.js';
