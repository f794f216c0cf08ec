/** `mcpkit/hono`: Hono middleware serving the Streamable HTTP endpoint on any runtime (hono is an optional peer). */
export { mcpHono } from './adapters/hono.js';
export type { HonoMcpMiddleware, HonoMcpOptions } from './adapters/hono.js';
