/**
 * `trustProxy`: the client's address behind reverse proxies, taken from
 * `X-Forwarded-For` or `Forwarded` (RFC 7239) the way Express and Fastify do:
 * walking from the socket's peer leftwards through the header, the first hop
 * that is not trusted is the client. A header sent by an untrusted peer is
 * never read, so a client cannot choose its own address.
 *
 * Every adapter hands the engine the socket's peer (`remoteAddress`,
 * `remotePort`); the engine applies this once per request, before anything
 * reads the address (quotas, `ctx.requestInfo`, OpenTelemetry).
 */
import { inRange, NAMED_RANGES, parseIp, parseRange, type IpRange } from './ip-range.js';
import type { HttpRequest } from './wire.js';

/**
 * Off (`false`, `undefined`, `0`, `''`); a hop count (the number of proxies in front, e.g. `1` for
 * one balancer); or the trusted proxies' addresses and CIDR ranges (`['10.0.0.0/8', '::1']`, also
 * `loopback`, `linklocal`, `uniquelocal`), as an array or one comma-separated string (`'1'` is a
 * hop count), so an environment variable can be passed as it is.
 */
export type TrustProxy = false | number | string | readonly string[];

/** Which header the proxies in front write (default `x-forwarded-for`, what nginx, HAProxy and cloud balancers append). */
export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

/** The most hops walked; a longer chain of trusted proxies ends at the hop reached. */
export const MAX_FORWARDED_HOPS = 32;
/** Only the header's last characters are read: enough for MAX_FORWARDED_HOPS entries. */
export const MAX_FORWARDED_CHARS = 4096;

/** Rewrites `request.remoteAddress`/`remotePort` to the forwarded client's, keeping the peer's as `peerAddress`. */
export type ClientAddressResolver = (request: HttpRequest) => void;

type Trusted = (address: Uint8Array, hop: number) => boolean;

const HOW =
  'give a hop count (the number of proxies in front, e.g. 1), or the proxies\' addresses and CIDR ranges (e.g. ["10.0.0.0/8", "::1"], or loopback, linklocal, uniquelocal)';

/** Builds the resolver, or undefined when proxies are not trusted; a malformed value throws a TypeError naming it. */
export function createTrustProxy(trust: unknown, header: unknown = 'x-forwarded-for'): ClientAddressResolver | undefined {
  if (header !== 'x-forwarded-for' && header !== 'forwarded') {
    throw new TypeError(`forwardedHeader: ${JSON.stringify(header)} is not one of "x-forwarded-for", "forwarded"`);
  }
  const trusted = trustRule(trust);
  if (trusted === undefined) return undefined;
  const read = header === 'forwarded' ? forwardedFor : xForwardedFor;
  return (request) => resolve(request, header, trusted, read);
}

function trustRule(trust: unknown): Trusted | undefined {
  if (trust === undefined || trust === false || trust === 0 || trust === '') return undefined;
  if (typeof trust === 'number') {
    if (!Number.isInteger(trust) || trust < 0) throw new TypeError(`trustProxy: ${trust} is not a hop count (a whole number ≥ 0); ${HOW}`);
    return (_address, hop) => hop < trust;
  }
  if (trust === true) throw new TypeError(`trustProxy: true would let any client choose its address; ${HOW}`);
  let entries: readonly unknown[];
  if (typeof trust === 'string') {
    const text = trust.trim();
    if (text === 'false' || text === '0' || text === '') return undefined;
    if (/^\d+$/.test(text)) return trustRule(Number(text));
    entries = text.split(',');
  } else if (Array.isArray(trust)) {
    entries = trust;
  } else {
    throw new TypeError(`trustProxy: ${describe(trust)} is not a hop count or a list of addresses; ${HOW}`);
  }
  const ranges: IpRange[] = [];
  for (const entry of entries) {
    const name = typeof entry === 'string' ? entry.trim().toLowerCase() : undefined;
    const named = name === undefined ? undefined : NAMED_RANGES[name];
    for (const text of named ?? [entry]) {
      const range = typeof text === 'string' ? parseRange(text) : undefined;
      if (range === undefined) throw new TypeError(`trustProxy: ${describe(text)} is not an IP address or CIDR range; ${HOW}`);
      ranges.push(range);
    }
  }
  if (ranges.length === 0) return undefined;
  return (address) => ranges.some((range) => inRange(range, address));
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value;
}

interface Hop {
  address: string;
  port: number | undefined;
}

function resolve(request: HttpRequest, header: ForwardedHeader, trusted: Trusted, read: (entry: string) => Hop | undefined): void {
  const peer = request.remoteAddress;
  if (peer === undefined) return;
  const peerBytes = parseIp(peer);
  if (peerBytes === undefined || !trusted(peerBytes, 0)) return;
  const full = request.headers[header];
  if (full === undefined) return;
  // The proxies in front append on the right: only the tail can matter.
  const value = full.length > MAX_FORWARDED_CHARS ? full.slice(full.length - MAX_FORWARDED_CHARS) : full;
  let client: Hop | undefined;
  let end = value.length;
  for (let hop = 1; hop <= MAX_FORWARDED_HOPS && end > 0; hop++) {
    const comma = value.lastIndexOf(',', end - 1);
    const found = read(value.slice(comma + 1, end));
    // Not an address ("unknown", an obfuscated name, garbage): the hop that wrote it is as far as we can see.
    if (found === undefined) break;
    client = found;
    if (comma === -1 || !trusted(parseIp(found.address)!, hop)) break;
    end = comma;
  }
  if (client === undefined) return;
  request.peerAddress = peer;
  request.remoteAddress = client.address;
  if (client.port === undefined) delete request.remotePort;
  else request.remotePort = client.port;
}

/** One `X-Forwarded-For` entry: `addr`, `v4:port` or `[v6]:port`. */
function xForwardedFor(entry: string): Hop | undefined {
  return hostPort(entry.trim());
}

/** The `for=` of one `Forwarded` element (`for=192.0.2.60;proto=http`, `for="[2001:db8::17]:4711"`). */
function forwardedFor(element: string): Hop | undefined {
  for (const pair of element.split(';', 8)) {
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals).trim().toLowerCase() !== 'for') continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    return hostPort(value);
  }
  return undefined;
}

function hostPort(text: string): Hop | undefined {
  let address = text;
  let port: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close === -1) return undefined;
    address = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return undefined;
      port = rest.slice(1);
    }
  } else {
    const colon = text.indexOf(':');
    // One colon: IPv4 with a port; more: a bare IPv6 address.
    if (colon !== -1 && text.indexOf(':', colon + 1) === -1) {
      address = text.slice(0, colon);
      port = text.slice(colon + 1);
    }
  }
  if (parseIp(address) === undefined) return undefined;
  if (port === undefined) return { address: address.toLowerCase(), port: undefined };
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) return undefined;
  return { address: address.toLowerCase(), port: Number(port) };
}
