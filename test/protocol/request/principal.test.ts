import { describe, expect, it } from 'vitest';
import { principalOf, quotaOwnerOf, samePrincipal } from '../../../src/protocol/request/principal.js';

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
