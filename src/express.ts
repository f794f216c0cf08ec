/** `mcpkit/express`: mount the Streamable HTTP endpoint on an Express app (express is an optional peer). */
export { mountMcpHttp } from './adapters/express.js';
export type { MountMcpHttpOptions } from './adapters/express.js';
