/** `mcpkit/fastify`: a Fastify plugin serving the Streamable HTTP endpoint (fastify is an optional peer). */
export { fastifyMcp } from './adapters/fastify.js';
export type { FastifyMcpOptions } from './adapters/fastify.js';
