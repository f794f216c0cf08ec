/**
 * The `trustProxy` header walk (src/transports/http/trust-proxy.ts) against a
 * reference model, with fast-check: any header text resolves without throwing,
 * to the peer or to an address the header holds; a chain of addresses resolves
 * to the right-most untrusted hop, as Express and Fastify (proxy-addr) do. Plus
 * RFC 7239 `Forwarded` forms, hostile sizes, and the configuration errors. The
 * end-to-end proof (a real proxy, every adapter, both stores) is
 * test/hostile/proxy-quotas.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inRange, parseIp, parseRange } from '../../../src/transports/http/ip-range.js';
import { createTrustProxy, MAX_FORWARDED_HOPS } from '../../../src/transports/http/trust-proxy.js';
import type { HttpRequest } from '../../../src/transports/http/types.js';
import { McpServer } from '../../../src/index.js';
import { startNode } from './support.js';

function request(peer: string | undefined, headers: Record<string, string>, port?: number): HttpRequest {
  const r: HttpRequest = { method: 'POST', path: '/mcp', query: '', headers, readBody: () => Promise.resolve({ kind: 'failed' }), signal: new AbortController().signal };
  if (peer !== undefined) r.remoteAddress = peer;
  if (port !== undefined) r.remotePort = port;
  return r;
}

function resolved(trust: Parameters<typeof createTrustProxy>[0], peer: string | undefined, headers: Record<string, string>, header?: 'x-forwarded-for' | 'forwarded'): HttpRequest {
  const r = request(peer, headers, 40000);
  createTrustProxy(trust, header)?.(r);
  return r;
}

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((b) => b.join('.'));
const v6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((g) => g.map((x) => x.toString(16)).join(':'));
const ip = fc.oneof(v4, v6);

/** proxy-addr's rule: [peer, ...header right to left]; the first untrusted one, else the last. */
function model(peer: string, chain: string[], trusted: (address: string, hop: number) => boolean): string {
  const hops = [peer, ...[...chain].reverse()];
  for (let i = 0; i < hops.length; i++) if (!trusted(hops[i]!, i)) return hops[i]!;
  return hops.at(-1)!;
}

describe('the X-Forwarded-For walk', () => {
  it('a hop count: the right-most untrusted hop, as proxy-addr computes it', () => {
    fc.assert(
      fc.property(ip, fc.array(ip, { minLength: 1, maxLength: MAX_FORWARDED_HOPS }), fc.integer({ min: 1, max: MAX_FORWARDED_HOPS }), (peer, chain, hops) => {
        const r = resolved(hops, peer, { 'x-forwarded-for': chain.join(', ') });
        expect(r.remoteAddress).toBe(model(peer, chain, (_a, i) => i < hops));
        expect(r.peerAddress).toBe(peer);
        expect(r.remotePort).toBeUndefined();
      }),
    );
  });

  it('a list of ranges: the first hop outside them, read from the right', () => {
    const trustedNet = fc.constantFrom('10.0.0.0/8', '192.168.1.0/24', 'fd00::/8');
    fc.assert(
      fc.property(fc.array(fc.oneof(ip, fc.constantFrom('10.1.2.3', '192.168.1.9', 'fd00::1', '10.255.0.1')), { minLength: 1, maxLength: 20 }), fc.uniqueArray(trustedNet, { minLength: 1 }), (chain, nets) => {
        const ranges = nets.map((n) => parseRange(n)!);
        const isTrusted = (address: string): boolean => ranges.some((range) => inRange(range, parseIp(address)!));
        const r = resolved(nets, '10.0.0.1', { 'x-forwarded-for': chain.join(',') });
        expect(r.remoteAddress).toBe(model('10.0.0.1', chain, isTrusted));
      }),
    );
  });

  it('any header text: never throws, and answers the peer or an address the header holds', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.oneof(ip, fc.string(), fc.constantFrom('unknown', '[::1]:80', '1.2.3.4:5', '[', ']', '::', ':::', '1.2.3', '"')), { maxLength: 40 }).map((parts) => parts.join(','))), fc.constantFrom<'x-forwarded-for' | 'forwarded'>('x-forwarded-for', 'forwarded'), (text, header) => {
        const r = resolved(64, '127.0.0.1', { [header]: text });
        const address = r.remoteAddress!;
        expect(parseIp(address)).toBeDefined();
        expect(address === '127.0.0.1' || text.toLowerCase().includes(address)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('a peer that is not trusted: its header is never read', () => {
    fc.assert(
      fc.property(ip.filter((a) => !a.startsWith('127.')), fc.string(), (peer, text) => {
        const r = resolved(['127.0.0.0/8'], peer, { 'x-forwarded-for': text, forwarded: text });
        expect(r.remoteAddress).toBe(peer);
        expect(r.peerAddress).toBeUndefined();
        expect(r.remotePort).toBe(40000);
      }),
    );
  });

  it('ports, brackets and a dual-stack peer (::ffff:127.0.0.1) are understood', () => {
    expect(resolved(1, '::ffff:127.0.0.1', { 'x-forwarded-for': '203.0.113.9:5678' })).toMatchObject({ remoteAddress: '203.0.113.9', remotePort: 5678 });
    expect(resolved(['127.0.0.1'], '::ffff:127.0.0.1', { 'x-forwarded-for': '[2001:DB8::1]:443' })).toMatchObject({ remoteAddress: '2001:db8::1', remotePort: 443 });
    // Garbage left of a trusted hop: the trusted hop that wrote it is as far as we can see.
    expect(resolved(2, '127.0.0.1', { 'x-forwarded-for': 'evil, 10.0.0.2' }).remoteAddress).toBe('10.0.0.2');
  });

  it('hostile sizes: a megabyte header is read from its last entries only', () => {
    const huge = `${'1.1.1.1,'.repeat(150_000)}203.0.113.1`;
    expect(resolved(2, '127.0.0.1', { 'x-forwarded-for': huge }).remoteAddress).toBe('1.1.1.1');
    const noCommas = `${'9'.repeat(1_000_000)}`;
    expect(resolved(1, '127.0.0.1', { 'x-forwarded-for': noCommas }).remoteAddress).toBe('127.0.0.1');
    // A chain longer than MAX_FORWARDED_HOPS of trusted hops ends at the hop reached.
    const chain = Array.from({ length: 100 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    expect(resolved(['10.0.0.0/8'], '10.9.9.9', { 'x-forwarded-for': chain.join(',') }).remoteAddress).toBe(chain[100 - MAX_FORWARDED_HOPS]);
  });
});

describe('Forwarded (RFC 7239)', () => {
  it('reads for= of each element, quoted IPv6 with a port included', () => {
    const header = 'for=192.0.2.43;proto=https, for="[2001:db8:cafe::17]:4711";by=10.0.0.1';
    expect(resolved(1, '10.0.0.1', { forwarded: header }, 'forwarded')).toMatchObject({ remoteAddress: '2001:db8:cafe::17', remotePort: 4711 });
    expect(resolved(2, '10.0.0.1', { forwarded: header }, 'forwarded')).toMatchObject({ remoteAddress: '192.0.2.43' });
    expect(resolved(2, '10.0.0.1', { forwarded: 'For="198.51.100.17:80"' }, 'forwarded')).toMatchObject({ remoteAddress: '198.51.100.17', remotePort: 80 });
    // Obfuscated and unknown identifiers are not addresses: the proxy stays the client.
    expect(resolved(1, '10.0.0.1', { forwarded: 'for=unknown' }, 'forwarded').remoteAddress).toBe('10.0.0.1');
    expect(resolved(1, '10.0.0.1', { forwarded: 'for=_hidden' }, 'forwarded').remoteAddress).toBe('10.0.0.1');
  });

  it('only the configured header is read: a client cannot pick the other one', () => {
    expect(resolved(1, '10.0.0.1', { forwarded: 'for=192.0.2.1', 'x-forwarded-for': '198.51.100.2' }).remoteAddress).toBe('198.51.100.2');
    expect(resolved(1, '10.0.0.1', { forwarded: 'for=192.0.2.1', 'x-forwarded-for': '198.51.100.2' }, 'forwarded').remoteAddress).toBe('192.0.2.1');
  });
});

describe('trustProxy configuration', () => {
  it('off: undefined, false, 0, "", "false", "0"', () => {
    for (const off of [undefined, false, 0, '', 'false', '0']) expect(createTrustProxy(off)).toBeUndefined();
  });

  it('a malformed value is refused naming it and what to give', async () => {
    const how = 'give a hop count (the number of proxies in front, e.g. 1), or the proxies\' addresses and CIDR ranges (e.g. ["10.0.0.0/8", "::1"], or loopback, linklocal, uniquelocal)';
    expect(() => createTrustProxy(true)).toThrow(`trustProxy: true would let any client choose its address; ${how}`);
    expect(() => createTrustProxy(1.5)).toThrow(`trustProxy: 1.5 is not a hop count (a whole number ≥ 0); ${how}`);
    expect(() => createTrustProxy(['10.0.0.0/33'])).toThrow(`trustProxy: "10.0.0.0/33" is not an IP address or CIDR range; ${how}`);
    expect(() => createTrustProxy('loopbak')).toThrow(`trustProxy: "loopbak" is not an IP address or CIDR range; ${how}`);
    expect(() => createTrustProxy(1, 'x-real-ip')).toThrow('forwardedHeader: "x-real-ip" is not one of "x-forwarded-for", "forwarded"');
    // Through the public options: listen() refuses to start.
    await expect(startNode(new McpServer({ name: 't', version: '1' }), { security: { trustProxy: ['nope'] } })).rejects.toThrow('trustProxy: "nope" is not an IP address or CIDR range');
  });

  it('named ranges, as proxy-addr names them', () => {
    expect(resolved('loopback', '::1', { 'x-forwarded-for': '192.0.2.5' }).remoteAddress).toBe('192.0.2.5');
    expect(resolved('uniquelocal', '172.20.0.3', { 'x-forwarded-for': '192.0.2.5' }).remoteAddress).toBe('192.0.2.5');
    expect(resolved('linklocal', '172.20.0.3', { 'x-forwarded-for': '192.0.2.5' }).remoteAddress).toBe('172.20.0.3');
  });
});
