import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { principalOf, quotaOwnerOf, samePrincipal } from '../../../src/protocol/request/principal.js';
import { isBusEvent, reaches, type BusEvent } from '../../../src/stores/bus.js';

describe('principalOf', () => {
  it('prefers the subject, stable across token refreshes', () => {
    expect(principalOf({ subject: 'alice', token: 't1', clientId: 'app' })).toBe('sub:alice');
    expect(samePrincipal('sub:alice', { subject: 'alice', token: 't2' })).toBe(true);
  });

  it('without a subject, tells two users of one client app apart by their tokens', () => {
    const alice = principalOf({ token: 'alice-token', clientId: 'app' });
    const bob = principalOf({ token: 'bob-token', clientId: 'app' });
    expect(alice).toMatch(/^token:[\w-]{32}$/);
    expect(alice).not.toBe(bob);
    expect(alice).not.toContain('alice-token');
  });

  it('falls back to the client id only when there is neither subject nor token', () => {
    expect(principalOf({ clientId: 'app' })).toBe('client:app');
    expect(principalOf({})).toBeUndefined();
    expect(principalOf(undefined)).toBeUndefined();
  });

  it('charges an unauthenticated caller by address, else one anonymous owner', () => {
    expect(quotaOwnerOf(undefined, '127.0.0.2')).toBe('addr:127.0.0.2');
    expect(quotaOwnerOf(undefined)).toBe('anonymous');
    expect(quotaOwnerOf({ subject: 'bob' }, '127.0.0.2')).toBe('sub:bob');
  });
});

describe('principalOf and the token issuer', () => {
  it('qualifies the principal by the token\'s issuer: one sub from two issuers is two principals', () => {
    const a = principalOf({ subject: 'alice', extra: { iss: 'https://a.example' } });
    const b = principalOf({ subject: 'alice', extra: { iss: 'https://b.example' } });
    expect(a).not.toBe(b);
    expect(principalOf({ subject: 'alice' })).toBe('sub:alice');
    expect(principalOf({ subject: 'alice', extra: { iss: 7 } })).toBe('sub:alice');
    expect(principalOf(undefined)).toBeUndefined();
  });

  it('no two (issuer, subject) pairs, with or without an issuer, give the same key', () => {
    const auth = fc.record({ subject: fc.string({ minLength: 1 }), iss: fc.option(fc.string({ minLength: 1 }), { nil: undefined }) });
    fc.assert(fc.property(auth, auth, (x, y) => {
      const key = (v: typeof x): string | undefined => principalOf({ subject: v.subject, ...(v.iss === undefined ? {} : { extra: { iss: v.iss } }) });
      return (x.subject === y.subject && x.iss === y.iss) === (key(x) === key(y));
    }), { numRuns: 2000 });
  });
});

describe('scoped resource updates on the bus', () => {
  const update = (to?: unknown): unknown => ({ type: 'resource_updated', uri: 'up+note://a', ...(to === undefined ? {} : { to }) });

  it('a shared bus accepts an audience of one session or one principal, nothing else', () => {
    expect(isBusEvent(update({ sessionId: 's1' }))).toBe(true);
    expect(isBusEvent(update({ principal: '' }))).toBe(true);
    for (const to of [null, 'sub:alice', {}, { sessionId: 1 }, { principal: null }, { sessionId: 's', principal: 'p' }, { principal: 'p', extra: 1 }]) expect(isBusEvent(update(to))).toBe(false);
  });

  it('a session-scoped update reaches its session only; a principal-scoped one that principal\'s sessionless connections only', () => {
    const toSession = update({ sessionId: 's1' }) as BusEvent;
    expect(reaches(toSession, 's1', 'sub:alice')).toBe(true);
    expect(reaches(toSession, 's2', 'sub:alice')).toBe(false);
    expect(reaches(toSession, undefined, 'sub:alice')).toBe(false);
    const toAlice = update({ principal: 'sub:alice' }) as BusEvent;
    expect(reaches(toAlice, undefined, 'sub:alice')).toBe(true);
    expect(reaches(toAlice, undefined, 'sub:bob')).toBe(false);
    expect(reaches(toAlice, 's1', 'sub:alice')).toBe(false);
    expect(reaches(update() as BusEvent, 's9', 'sub:bob')).toBe(true);
  });
});
