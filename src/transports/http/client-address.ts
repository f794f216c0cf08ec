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
