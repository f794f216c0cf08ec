/**
 * An authorizer without a person: GETs the authorization URL and follows the
 * authorization server's redirects (same origin only, cookies kept for it, a
 * bounded number of hops) until one points at the redirect URI. For tests and
 * for authorization servers that approve without a login page; a page that
 * wants a person (HTTP 200) is an error that says so.
 */
import type { OAuthAuthorizer } from './authorizer.js';
import { McpAuthError } from './errors.js';
import { safeUrl, type FetchLike } from './fetch-json.js';
import { keysOf, refuseUnknownKeys } from '../../util/known-keys.js';

const KEYS = keysOf<HeadlessAuthorizerOptions>({ redirectUri: true, fetch: true, maxRedirects: true, timeoutMs: true });

export interface HeadlessAuthorizerOptions {
  /** Never listened on: the redirect is read from the Location header. Default `http://127.0.0.1/callback`. */
  redirectUri?: string;
  fetch?: FetchLike;
  /** Redirects followed before giving up (default 10). */
  maxRedirects?: number;
  timeoutMs?: number;
}

export function headlessAuthorizer(options: HeadlessAuthorizerOptions = {}): OAuthAuthorizer {
  refuseUnknownKeys(options, KEYS, 'headlessAuthorizer(options)');
  const redirect = options.redirectUri ?? 'http://127.0.0.1/callback';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const maxRedirects = options.maxRedirects ?? 10;
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    redirectUri: () => redirect,
    async authorize(url, { redirectUri, signal }) {
      const target = new URL(redirectUri);
      const cookies = new Map<string, string>();
      let current = url;
      for (let hop = 0; hop <= maxRedirects; hop++) {
        const timeout = AbortSignal.timeout(timeoutMs);
        const headers: Record<string, string> = { accept: 'text/html,application/json' };
        if (cookies.size > 0) headers['cookie'] = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
        const response = await doFetch(current, { method: 'GET', headers, redirect: 'manual', signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
        await response.body?.cancel().catch(() => undefined);
        for (const line of response.headers.getSetCookie()) {
          const pair = line.split(';', 1)[0]!;
          const eq = pair.indexOf('=');
          if (eq > 0 && cookies.size < 50) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
        }
        const location = response.headers.get('location');
        if (response.status < 300 || response.status >= 400 || location === null) {
          throw new McpAuthError('denied', `headless authorization: ${safeUrl(current.href)} answered HTTP ${response.status} instead of redirecting; it needs a person (use loopbackAuthorizer or your own authorizer)`);
        }
        const next = new URL(location, current);
        if (next.origin === target.origin && next.pathname === target.pathname) return next;
        if (next.origin !== url.origin) {
          throw new McpAuthError('denied', `headless authorization: the authorization server redirected to another origin (${next.origin}) before the redirect URI; not followed`);
        }
        current = next;
      }
      throw new McpAuthError('denied', `headless authorization: more than ${maxRedirects} redirects without reaching the redirect URI (a redirect loop?)`);
    },
  };
}
