import type { AuthInfo, RequestInfo } from '../../protocol/connection.js';
import { quotaOwnerOf } from '../../protocol/request/principal.js';
import type { HttpRequest } from './wire.js';

/** What handlers and telemetry learn of the HTTP request (`ctx.requestInfo`): one shape for every route. */
export function requestInfoOf(request: HttpRequest): RequestInfo {
  const address = request.remoteAddress;
  return { headers: request.headers, remoteAddress: clientAddressKey(address), clientAddress: address, clientPort: request.remotePort, httpVersion: request.httpVersion };
}

/**
 * The key a remote address is charged under when a caller is unauthenticated.
 * An IPv4-mapped IPv6 address counts as its IPv4 address; other IPv6 addresses
 * count by their /64 prefix, since one host usually holds a whole /64 and could
 * otherwise mint a fresh address per session.
 */
export function clientAddressKey(address: string | undefined): string | undefined {
  if (address === undefined || address === '') return undefined;
  if (!address.includes(':')) return address;
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && lower.includes('.')) return lower.slice(7);
  const zone = lower.indexOf('%');
  const bare = zone === -1 ? lower : lower.slice(0, zone);
  const [head = '', tail] = bare.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Owners of unauthenticated callers by raw remote address: a few hundred, cleared when full. */
const addressOwners = new Map<string, string>();
const MAX_ADDRESS_OWNERS = 256;

/**
 * `quotaOwnerOf(authInfo, clientAddressKey(remoteAddress))`, with the unauthenticated
 * case remembered per address: a keep-alive client sends many requests from one
 * address, and a fresh key string per request costs a flatten and a hash at each lookup.
 */
export function quotaOwnerOfRequest(authInfo: AuthInfo | undefined, remoteAddress: string | undefined): string {
  if (authInfo !== undefined || remoteAddress === undefined) return quotaOwnerOf(authInfo, clientAddressKey(remoteAddress));
  let owner = addressOwners.get(remoteAddress);
  if (owner === undefined) {
    if (addressOwners.size >= MAX_ADDRESS_OWNERS) addressOwners.clear();
    owner = quotaOwnerOf(undefined, clientAddressKey(remoteAddress));
    addressOwners.set(remoteAddress, owner);
  }
  return owner;
}
