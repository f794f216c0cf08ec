/** `mcpkit/stdio`: newline-delimited JSON over stdin/stdout (or any stream pair). */
export { DEFAULT_EOF_GRACE_MS, DEFAULT_MAX_OUTPUT_BUFFER, InvalidJsonError, LineTooLongError, OutputClosedError, StdioTransport } from './transports/stdio.js';
export type { ReadableLike, StdioTransportConfig, WritableLike } from './transports/stdio.js';
