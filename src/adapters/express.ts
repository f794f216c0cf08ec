/** Express adapter: mounts the node handler on a path. No protocol rules here. */
import type { Express, IRouter, NextFunction, Request, Response, Router } from 'express';
import { checkEngineKeys } from '../transports/http/options.js';
import { wellKnownPaths } from '../transports/http/auth/metadata.js';
import { canonicalResource, resourcePath, trimSlash } from '../transports/http/auth/resource.js';
import type { ConnectionFactory } from '../protocol/connection.js';
import type { BodyResult } from '../transports/http/types.js';
import { createNodeHandler, settleBody, STREAM_BUFFER_KEYS, type NodeHandler, type NodeHandlerOptions } from './node.js';

/** The node handler's options; `path` is where the endpoint is mounted (default '/mcp'). */
export type MountMcpHttpOptions = NodeHandlerOptions;

/**
 * Serves MCP on `app` at `path`: stateless by default, DNS-rebinding protection
 * on, Host limited to the loopback names unless `allowedHosts` says otherwise.
 * Requests run concurrently. Needs no body parser: it reads the body itself,
 * under `maxBodyBytes`. A body already parsed by `express.json()` (or
 * `text()`/`raw()`) in front is used and held to the same limits; when such a
 * parser fails on a request to `path` (invalid JSON, its own size limit), the
 * error handler mounted here answers the JSON-RPC error mcpkit would have
 * (-32700, 413), after the same Host/Origin checks, instead of Express's HTML page.
 * Returns the handler, whose `close()` shuts the endpoint down.
 */
export function mountMcpHttp(app: Express | Router, server: ConnectionFactory, options: MountMcpHttpOptions = {}): NodeHandler {
  checkEngineKeys(options, 'mountMcpHttp() options', STREAM_BUFFER_KEYS);
  const { path = '/mcp', ...engineOptions } = options;
  // Express routes by path itself, so the engine serves whatever reaches it.
  const auth = engineOptions.auth;
  if (auth?.resource !== undefined && !resourcePath(canonicalResource(auth.resource)).endsWith(trimSlash(path))) {
    throw new TypeError(`auth.resource "${auth.resource}" does not end with the mounted path "${path}": tokens are issued for the resource URL, so it must name this endpoint`);
  }
  const handler = createNodeHandler(server, { stateless: true, ...engineOptions } as NodeHandlerOptions);
  const router: IRouter = app;
  router.all(path, (req, res) => handler(req, res));
  // The protected resource metadata lives outside the MCP path.
  const resource = handler.engine.resource;
  if (resource !== undefined) for (const wellKnown of wellKnownPaths(resource)) router.all(wellKnown, (req, res) => handler(req, res));
  // Express skips routes while an error is pending, so the error handler is middleware (a prefix match: only
  // the endpoint itself, req.path '/', is answered here).
  router.use(path, (error: unknown, req: Request, res: Response, next: NextFunction) => {
    const settled = req.path === '/' ? bodyParserFailure(error) : undefined;
    if (settled === undefined) {
      next(error);
      return;
    }
    settleBody(req, settled);
    handler(req, res);
  });
  return handler;
}

/** What a body-parser (`express.json()` & co.) error says about the body, or undefined for other errors. */
function bodyParserFailure(error: unknown): BodyResult | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, body, limit } = error as { type?: unknown; body?: unknown; limit?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      // The raw text it could not parse: the engine parses it again and answers -32700 with the reason.
      return { kind: 'text', text: typeof body === 'string' ? body : '' };
    case 'entity.too.large':
      return typeof limit === 'number' ? { kind: 'too-large', limit, by: 'the limit of the body parser in front of the MCP endpoint' } : { kind: 'too-large' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'stream.not.readable':
      return { kind: 'failed' };
    default:
      return undefined;
  }
}
