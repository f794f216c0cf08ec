/** Fastify adapter: a plugin that routes the endpoint to the node handler. No protocol rules here. */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { wellKnownPaths } from '../transports/http/auth/metadata.js';
import { canonicalResource, resourcePath, trimSlash } from '../transports/http/auth/resource.js';
import type { ConnectionFactory } from '../protocol/connection.js';
import { createNodeHandler, type NodeHandler, type NodeHandlerOptions } from './node.js';

interface FastifyPluginFields {
  /** The server (an McpServer) to serve. */
  server: ConnectionFactory;
  /** Where the MCP endpoint is mounted (default '/mcp'), under the prefix the plugin is registered with. */
  path?: string;
  /** Called with the handler once it is made (its `engine`, and `close()` that Fastify's onClose also calls). */
  onHandler?: (handler: NodeHandler) => void;
}

export type FastifyMcpOptions = NodeHandlerOptions & FastifyPluginFields;

/**
 * Serves MCP on a Fastify app: `await app.register(fastifyMcp, { server })`. Stateless by default,
 * DNS-rebinding protection on, Host limited to the loopback names unless `allowedHosts` says otherwise.
 * The body is read by mcpkit under `maxBodyBytes`, not by Fastify's parsers (they are turned off for
 * these routes only: the plugin is encapsulated), and the answer is written to the raw response, so
 * SSE streams flow as they are produced. `app.close()` shuts the endpoint down.
 */
export const fastifyMcp: FastifyPluginAsync<FastifyMcpOptions> = async (app: FastifyInstance, options: FastifyMcpOptions) => {
  const { server, path = '/mcp', onHandler, ...engineOptions } = options;
  const auth = engineOptions.auth;
  if (auth?.resource !== undefined && !resourcePath(canonicalResource(auth.resource)).endsWith(trimSlash(path))) {
    throw new TypeError(`auth.resource "${auth.resource}" does not end with the mounted path "${path}": tokens are issued for the resource URL, so it must name this endpoint`);
  }
  const handler = createNodeHandler(server, { stateless: true, ...engineOptions } as NodeHandlerOptions);
  onHandler?.(handler);
  // Leave the body unread for the engine, whatever its type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const serve = (request: { raw: Parameters<NodeHandler>[0] }, reply: { hijack(): void; raw: Parameters<NodeHandler>[1] }): void => {
    reply.hijack();
    handler(request.raw, reply.raw);
  };
  app.all(path, serve);
  const resource = handler.engine.resource;
  if (resource !== undefined) for (const wellKnown of wellKnownPaths(resource)) app.all(wellKnown, serve);
  app.addHook('onClose', () => handler.close());
};
