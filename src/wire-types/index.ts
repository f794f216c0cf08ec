/**
 * The wire shapes: every MCP type a message carries, one name each, written from the spec's
 * schemas (the newest revision, plus the fields older ones still send; checked against
 * test/spec/<revision>/schema.json by test/protocol/wire/types.test.ts). Methods, middleware,
 * the registries' contracts, mcpkit/testing and mcpkit/client all use these; the root entry
 * exports them. They import nothing, so every layer may use them (scripts/layers.json).
 */
export type * from './content.js';
export type * from './result.js';
export type * from './tools.js';
export type * from './resources.js';
export type * from './prompts.js';
export type * from './lifecycle.js';
export type * from './client-requests.js';
export type * from './tasks.js';
export { LOGGING_LEVELS, type LoggingLevel, type ProgressToken } from './logging.js';
