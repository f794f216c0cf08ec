/**
 * `mcpkit/stdio`: the stdio transport's limits, errors and stream types. `StdioTransport` itself is
 * authoring API, exported by `mcpkit`.
 */
export { DEFAULT_EOF_GRACE_MS, DEFAULT_MAX_OUTPUT_BUFFER, InvalidJsonError, LineTooLongError } from './transports/stdio.js';
export type { ReadableLike, WritableLike } from './transports/stdio.js';
