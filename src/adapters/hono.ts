/** Hono adapter: middleware over the fetch handler. No protocol rules here. */
import type { Context, MiddlewareHandler } from 'hono';
import { wellKnownPaths } from '../transports/http/auth/metadata.js';
import type { ConnectionFactory } from '../protocol/connection.js';
import type { CloseOptions, HttpEngine } from '../transports/http/engine.js';
import { createFetchHandler, runtimeRemoteAddress, type FetchHandlerOptions } from './fetch.js';

/** The fetch handler's options; `path` is the MCP endpoint's (default '/mcp'). */
export type HonoMcpOptions = FetchHandlerOptions;

export interface HonoMcpMiddleware extends MiddlewareHandler {
  readonly engine: HttpEngine;
  close(options?: CloseOptions): Promise<void>;
}

/**
 * Serves MCP from a Hono app on any runtime Hono runs on: `app.use(mcpHono(server))`. Requests to
 * `path` (and to the protected resource metadata, with `auth`) are answered here; every other request
 * goes on to the next handler. Stateless by default, DNS-rebinding protection on.
 */
export function mcpHono(server: ConnectionFactory, options: HonoMcpOptions = {}): HonoMcpMiddleware {
  const { path = '/mcp', remoteAddress, ...engineOptions } = options;
  const handler = createFetchHandler(server, { stateless: true, path, remoteAddress: remoteAddress ?? honoRemoteAddress, ...engineOptions } as FetchHandlerOptions);
  const resource = handler.engine.resource;
  const paths = new Set([path, ...(resource === undefined ? [] : wellKnownPaths(resource)), ...(engineOptions.serverCard === undefined ? [] : [`${path}/server-card`])]);
  const middleware = async (c: Context, next: () => Promise<void>): Promise<Response | undefined> => {
    if (!paths.has(c.req.path)) {
      await next();
      return undefined;
    }
    return handler(c.req.raw, c.env);
  };
  return Object.assign(middleware, { engine: handler.engine, close: (closeOptions?: CloseOptions) => handler.close(closeOptions) });
}

/**
 * The caller's address from what Hono passes as `c.env`: @hono/node-server's `{ incoming }`, else what
 * the fetch adapter reads from Bun's server and Deno's info.
 */
function honoRemoteAddress(request: Request, env: unknown): string | undefined {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: unknown } } } | undefined)?.incoming;
  const address = incoming?.socket?.remoteAddress;
  if (typeof address === 'string') return address;
  return runtimeRemoteAddress(request, env);
}
