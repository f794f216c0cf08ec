/**
 * CORS for browser clients (opt-in). It grants exactly the origins the
 * DNS-rebinding guard already accepts, so it never widens who may call: it
 * only lets a page that may call read the answers, the session id among them.
 */
import type { CorsOptions, HttpRequest, HttpResponse } from './types.js';

const EXPOSED = 'mcp-session-id, mcp-protocol-version, www-authenticate';
const METHODS = 'GET, POST, DELETE';
/** What MCP clients send; a preflight asking for other headers gets these, and the browser decides. */
const ALLOWED_HEADERS = 'content-type, accept, authorization, last-event-id, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name';

export interface Cors {
  /** The answer to a preflight `OPTIONS` from an allowed origin. */
  preflight(request: HttpRequest, origin: string): HttpResponse;
  /** Adds the CORS response headers for an allowed origin. */
  decorate(response: HttpResponse, origin: string): HttpResponse;
}

export function createCors(options: boolean | CorsOptions | undefined): Cors | undefined {
  if (options === undefined || options === false) return undefined;
  const maxAge = String((options === true ? undefined : options.maxAgeSeconds) ?? 600);
  return {
    preflight(request, origin) {
      // Mcp-Param-* names depend on the tool: echo what the browser asks for when it is one of ours.
      const asked = request.headers['access-control-request-headers'];
      const params = asked
        ?.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => /^mcp-param-[!#$%&'*+.^_`|~0-9a-z-]+$/.test(h));
      return {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': params?.length ? `${ALLOWED_HEADERS}, ${params.join(', ')}` : ALLOWED_HEADERS,
          'access-control-max-age': maxAge,
          vary: 'Origin',
        },
      };
    },
    decorate(response, origin) {
      response.headers['access-control-allow-origin'] = origin;
      response.headers['access-control-expose-headers'] = EXPOSED;
      response.headers['vary'] = 'Origin';
      return response;
    },
  };
}
