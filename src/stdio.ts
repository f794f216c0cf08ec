/** `mcpkit/stdio`: newline-delimited JSON over stdin/stdout (or any stream pair). */
export { InvalidJsonError, LineTooLongError, StdioTransport } from './transports/stdio.js';
export type { ReadableLike, StdioTransportConfig, WritableLike } from './transports/stdio.js';
