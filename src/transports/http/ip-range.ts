/**
 * IP addresses and CIDR ranges for `trustProxy`. Every address is held as 16
 * bytes, IPv4 as IPv4-mapped IPv6 (::ffff:a.b.c.d), so one prefix comparison
 * matches both families and a dual-stack socket's `::ffff:10.0.0.1` matches
 * `10.0.0.0/8`. Parsing is strict and bounded: hostile header text is refused,
 * never guessed at.
 */

export interface IpRange {
  readonly bytes: Uint8Array;
  /** Prefix length over the 16 bytes (an IPv4 /8 is 104). */
  readonly bits: number;
}

/** The longest text taken for an address (an IPv6 literal with an embedded IPv4 and a zone). */
const MAX_IP_LENGTH = 64;

/** Named ranges, as Express and Fastify (proxy-addr) name them. */
export const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const DECIMAL = /^\d{1,3}$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split('.', 5);
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!DECIMAL.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes.push(value);
  }
  return bytes;
}

/** The 16-bit groups of one side of `::`; an IPv4 tail only where `lastMayBeV4`. */
function groupsOf(text: string, lastMayBeV4: boolean): number[] | undefined {
  if (text === '') return [];
  const parts = text.split(':', 9);
  const groups: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (lastMayBeV4 && i === parts.length - 1 && part.includes('.')) {
      const v4 = ipv4Bytes(part);
      if (v4 === undefined) return undefined;
      groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else {
      if (!HEX_GROUP.test(part)) return undefined;
      groups.push(parseInt(part, 16));
    }
  }
  return groups;
}

function ipv6Bytes(text: string): Uint8Array | undefined {
  const zone = text.indexOf('%');
  const bare = zone === -1 ? text : text.slice(0, zone);
  const halves = bare.split('::', 3);
  if (halves.length > 2) return undefined;
  const head = groupsOf(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : [];
  if (head === undefined || tail === undefined) return undefined;
  const count = head.length + tail.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined;
  const groups = halves.length === 1 ? head : [...head, ...Array<number>(8 - count).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

/** A bare IPv4 or IPv6 address (no brackets, no port) as 16 bytes; undefined when it is not one. */
export function parseIp(text: string): Uint8Array | undefined {
  if (text.length === 0 || text.length > MAX_IP_LENGTH) return undefined;
  if (text.includes(':')) return ipv6Bytes(text);
  const v4 = ipv4Bytes(text);
  if (v4 === undefined) return undefined;
  const bytes = new Uint8Array(16);
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  bytes.set(v4, 12);
  return bytes;
}

/** `address` or `address/prefix`; undefined when malformed (the caller names the entry). */
export function parseRange(entry: string): IpRange | undefined {
  const text = entry.trim();
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const bytes = parseIp(address);
  if (bytes === undefined) return undefined;
  const v4 = !address.includes(':');
  const max = v4 ? 32 : 128;
  let prefix = max;
  if (slash !== -1) {
    const digits = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(digits) || Number(digits) > max) return undefined;
    prefix = Number(digits);
  }
  return { bytes, bits: v4 ? 96 + prefix : prefix };
}

/** True when `address` (16 bytes) lies in `range`. */
export function inRange(range: IpRange, address: Uint8Array): boolean {
  const whole = range.bits >> 3;
  for (let i = 0; i < whole; i++) if (range.bytes[i] !== address[i]) return false;
  const rest = range.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (range.bytes[whole]! & mask) === (address[whole]! & mask);
}
