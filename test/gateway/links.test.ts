/**
 * The upstream link pool's bound (maxLinks): a principal holds at most a quarter of the links and
 * makes room only among its own idle ones, so one downstream client opening sessions never
 * closes another client's upstream session.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveEntry } from '../../src/util/live-list.js';
import { UpstreamError, type LinkOwner } from '../../src/gateway/upstream.js';
import { UpstreamPool } from '../../src/gateway/upstream-pool.js';

// Links are created, not connected: nothing here reaches the (unused) URL.
const pool = (maxLinks: number): UpstreamPool =>
  new UpstreamPool({ name: 'up', config: { url: 'http://127.0.0.1:9/mcp' }, maxLinks, relay: () => Promise.reject(new Error('unused')), onNotification: () => undefined });

const session = (principal: string, n: number): LinkOwner => ({ sessionId: `${principal}-${n}`, principal, issuer: undefined, id: `sub:${principal}` });

describe('maxLinks', () => {
  it('a principal over its quarter closes its own least recently used idle link, never another principal\'s', () => {
    const links = pool(8);
    const bob = links.linkFor(session('bob', 0));
    for (let i = 0; i < 5; i++) links.linkFor(session('alice', i));
    const keys = links.links.map((l) => l.key);
    expect(keys).toContain(bob.key);
    expect(keys.filter((k) => k.startsWith('s:alice'))).toEqual(['s:alice-3', 's:alice-4']);
  });

  it('the link closed is the one its principal used longest ago, not the one opened first', () => {
    const links = pool(8); // a quarter: two links per principal
    links.linkFor(session('alice', 0));
    links.linkFor(session('alice', 1));
    links.linkFor(session('alice', 0)); // alice-0 used again: alice-1 is now the least recently used
    links.linkFor(session('alice', 2));
    expect(links.links.map((l) => l.key).sort()).toEqual(['s:alice-0', 's:alice-2']);
  });

  it('a principal whose links are all busy is refused with the reason; the others keep theirs', () => {
    const links = pool(4);
    links.linkFor(session('bob', 0)).inFlight.add(new LiveEntry({}));
    const alice = links.linkFor(session('alice', 0));
    alice.inFlight.add(new LiveEntry({}));
    expect(() => links.linkFor(session('alice', 1))).toThrow(UpstreamError);
    expect(() => links.linkFor(session('alice', 1))).toThrow(/a quarter of maxLinks \(4\).*none of this principal's is idle/);
    alice.inFlight.clear();
    expect(links.linkFor(session('alice', 1)).key).toBe('s:alice-1');
    expect(links.links.map((l) => l.key).sort()).toEqual(['s:alice-1', 's:bob-0']);
  });

  it('a link carrying a subscription or an upstream request is not idle: it is kept, and its principal refused until it is', () => {
    const links = pool(4); // a quarter: one link per principal
    const subscribed = links.linkFor(session('alice', 0));
    subscribed.subscriptions.add('note://a');
    expect(() => links.linkFor(session('alice', 1))).toThrow(/none of this principal's is idle/);
    expect(links.links.map((l) => l.key)).toEqual(['s:alice-0']); // its subscription lives on
    subscribed.subscriptions.clear();
    subscribed.requests = 1; // a list fetch on it
    expect(() => links.linkFor(session('alice', 1))).toThrow(/none of this principal's is idle/);
    subscribed.requests = 0;
    expect(links.linkFor(session('alice', 1)).key).toBe('s:alice-1');
  });

  it('any sequence of owners: the pool stays within maxLinks and nobody loses a link to another principal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 16 }), fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 9 })), { maxLength: 80 }), (max, steps) => {
        const links = pool(max);
        for (const [principal, n] of steps) {
          const before = links.links.filter((l) => l.owner.principal !== principal).map((l) => l.key);
          try {
            links.linkFor(session(principal, n));
          } catch (error) {
            expect(error).toBeInstanceOf(UpstreamError);
          }
          const after = new Set(links.links.map((l) => l.key));
          for (const key of before) expect(after.has(key)).toBe(true);
          expect(links.links.length).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});
