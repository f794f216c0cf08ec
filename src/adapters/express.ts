/** Express adapter: mounts the node handler on a path. No protocol rules here. */
import type { Express, IRouter, Router } from 'express';
import { wellKnownPaths } from '../auth/metadata.js';
import { canonicalResource, resourcePath, trimSlash } from '../auth/resource.js';
import type { ConnectionFactory } from '../protocol/connection.js';
import type { HttpEngineOptions } from '../transports/http/types.js';
import { createNodeHandler, type NodeHandler } from './node.js';

export interface MountMcpHttpOptions extends HttpEngineOptions {
  /** Where the MCP endpoint is mounted (default '/mcp'). */
  path?: string;
}

/**
 * Serves MCP on `app` at `path`: stateless by default, DNS-rebinding protection
 * on, Host limited to the loopback names unless `allowedHosts` says otherwise.
 * Requests run concurrently. Works with or without `express.json()` in front.
 * Returns the handler, whose `close()` shuts the endpoint down.
 */
export function mountMcpHttp(app: Express | Router, server: ConnectionFactory, options: MountMcpHttpOptions = {}): NodeHandler {
  const { path = '/mcp', ...engineOptions } = options;
  // Express routes by path itself, so the engine serves whatever reaches it.
  const auth = engineOptions.auth;
  if (auth?.resource !== undefined && !resourcePath(canonicalResource(auth.resource)).endsWith(trimSlash(path))) {
    throw new TypeError(`auth.resource "${auth.resource}" does not end with the mounted path "${path}": tokens are issued for the resource URL, so it must name this endpoint`);
  }
  const handler = createNodeHandler(server, { stateless: true, ...engineOptions });
  const router: IRouter = app;
  router.all(path, (req, res) => handler(req, res));
  // The protected resource metadata lives outside the MCP path.
  const resource = handler.engine.resource;
  if (resource !== undefined) for (const wellKnown of wellKnownPaths(resource)) router.all(wellKnown, (req, res) => handler(req, res));
  return handler;
}
