/**
 * DNS-rebinding protection. A web page on evil.example can make a browser send
 * requests to a name that resolves to 127.0.0.1; the browser then talks to a
 * local MCP server with the attacker's Host (and Origin). Checking both against
 * an allow-list, before any other work, refuses those requests.
 */
import { ErrorCode } from '../../jsonrpc/errors.js';
import { httpError } from './errors.js';
import type { HttpRequest, HttpResponse, HttpSecurityOptions } from './types.js';

/** The loopback names accepted by default. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

interface HostRule {
  name: string;
  /** A fixed port, `'local'` for the port the request arrived on, or undefined for any port. */
  port: number | 'local' | undefined;
}

interface ParsedHost {
  name: string;
  port: number | undefined;
}

/** Splits `name[:port]` (IPv6 literals in brackets); undefined when malformed. */
export function parseHost(value: string): ParsedHost | undefined {
  const host = value.trim().toLowerCase();
  if (host.length === 0) return undefined;
  let name: string;
  let rest: string;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close === -1) return undefined;
    name = host.slice(0, close + 1);
    rest = host.slice(close + 1);
  } else {
    const colon = host.lastIndexOf(':');
    name = colon === -1 ? host : host.slice(0, colon);
    rest = colon === -1 ? '' : host.slice(colon);
  }
  if (rest === '') return { name, port: undefined };
  if (!/^:\d{1,5}$/.test(rest)) return undefined;
  return { name, port: Number(rest.slice(1)) };
}

function matches(rules: readonly HostRule[], host: ParsedHost, defaultPort: number, localPort: number | undefined): boolean {
  const port = host.port ?? defaultPort;
  for (const rule of rules) {
    if (rule.name !== host.name) continue;
    if (rule.port === undefined) return true;
    if (rule.port === 'local') {
      if (localPort === undefined || localPort === port) return true;
      continue;
    }
    if (rule.port === port) return true;
  }
  return false;
}

export type RequestGuard = (request: HttpRequest) => HttpResponse | undefined;

/** Builds the Host/Origin check, or undefined when protection is off. */
export function createRebindingGuard(options: HttpSecurityOptions): RequestGuard | undefined {
  if (options.dnsRebindingProtection === false) return undefined;
  const rules: HostRule[] =
    options.allowedHosts === undefined
      ? LOOPBACK_HOSTS.map((name) => ({ name, port: 'local' as const }))
      : options.allowedHosts.map((entry) => {
          const parsed = parseHost(entry);
          if (parsed === undefined) throw new TypeError(`security.allowedHosts: "${entry}" is not a host name with an optional port`);
          return { name: parsed.name, port: parsed.port };
        });
  const origins =
    options.allowedOrigins === undefined ? undefined : new Set(options.allowedOrigins.map(normalizeOrigin));
  const hostList = (options.allowedHosts ?? LOOPBACK_HOSTS).join(', ');
  // The defaults hold for the port the request arrived on only, which a new user behind a balancer cannot guess.
  const allowed = (localPort: number | undefined): string =>
    options.allowedHosts === undefined ? `${hostList}, on ${localPort === undefined ? 'the port the request arrived on' : `port ${localPort}`} only` : hostList;

  // Clients send the same Host (and Origin) on every request: each distinct value is checked
  // once per listening port and its verdict kept (a few entries; cleared when full, so
  // a stream of made-up names costs a parse each and holds nothing).
  const hostVerdicts = new VerdictCache();
  const originVerdicts = new VerdictCache();
  const hostAllowed = (value: string, localPort: number | undefined): boolean => {
    const known = hostVerdicts.get(value, localPort);
    if (known !== undefined) return known;
    const host = parseHost(value);
    return hostVerdicts.set(value, localPort, host !== undefined && matches(rules, host, 80, localPort));
  };
  const originAllowed = (value: string, localPort: number | undefined): boolean => {
    const known = originVerdicts.get(value, localPort);
    if (known !== undefined) return known;
    const ok = origins !== undefined ? origins.has(normalizeOrigin(value)) : originMatchesHosts(value, rules, localPort);
    return originVerdicts.set(value, localPort, ok);
  };

  return (request) => {
    const hostHeader = request.headers['host'];
    if (hostHeader === undefined || !hostAllowed(hostHeader, request.localPort)) {
      return forbidden(
        `Forbidden: Host "${hostHeader ?? ''}" is not allowed (allowed: ${allowed(request.localPort)}). ` +
          'This guards against DNS rebinding; if the name is yours (a load balancer\'s public Host), add it to allowedHosts: ' +
          'a bare name ("mcp.example.com") allows it on any port, "name:port" on that port.',
      );
    }
    const origin = request.headers['origin'];
    if (origin === undefined) return undefined;
    if (originAllowed(origin, request.localPort)) return undefined;
    return forbidden(
      `Forbidden: Origin "${origin}" is not allowed. ` +
        'This guards against DNS rebinding; add it to allowedOrigins if pages from it may call this server.',
    );
  };
}

const MAX_VERDICTS = 32;

/** Verdicts per header value and listening port; bounded, cleared when full. */
class VerdictCache {
  private readonly entries = new Map<string, { port: number | undefined; ok: boolean }>();
  // The last answer: comparing a short header string beats hashing it again (the same Host comes every time).
  private last: { value: string; port: number | undefined; ok: boolean } | undefined;

  get(value: string, port: number | undefined): boolean | undefined {
    const last = this.last;
    if (last !== undefined && last.value === value && last.port === port) return last.ok;
    const entry = this.entries.get(value);
    if (entry === undefined || entry.port !== port) return undefined;
    this.last = { value, port, ok: entry.ok };
    return entry.ok;
  }

  set(value: string, port: number | undefined, ok: boolean): boolean {
    if (this.entries.size >= MAX_VERDICTS) this.entries.clear();
    this.entries.set(value, { port, ok });
    this.last = { value, port, ok };
    return ok;
  }
}

function normalizeOrigin(origin: string): string {
  const lower = origin.trim().toLowerCase();
  return lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

function originMatchesHosts(origin: string, rules: readonly HostRule[], localPort: number | undefined): boolean {
  const lower = normalizeOrigin(origin);
  const scheme = lower.startsWith('http://') ? 'http://' : lower.startsWith('https://') ? 'https://' : undefined;
  if (scheme === undefined) return false; // includes "null" (sandboxed frames, file:)
  const host = parseHost(lower.slice(scheme.length));
  return host !== undefined && matches(rules, host, scheme === 'http://' ? 80 : 443, localPort);
}

function forbidden(message: string): HttpResponse {
  return httpError(403, ErrorCode.InvalidRequest, message);
}
