/**
 * The one helper that refuses unknown option keys (src/util/known-keys.ts): the edit distance, the
 * suggestion (fast-check properties over arbitrary key lists and slips), and the message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, nearestKey, refuseUnknownKeys, unknownKeyMessage } from '../../src/util/known-keys.js';

const keyArb = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,20}$/);

/** One slip of the keyboard: a character dropped, added, replaced, or two swapped. */
const slipArb = (key: string): fc.Arbitrary<string> =>
  fc.tuple(fc.nat({ max: key.length }), fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_0123456789'), fc.constantFrom('drop', 'add', 'replace', 'swap')).map(([at, c, kind]) => {
    const i = Math.min(at, key.length - 1);
    if (kind === 'drop') return key.slice(0, i) + key.slice(i + 1);
    if (kind === 'add') return key.slice(0, at) + c + key.slice(at);
    if (kind === 'replace') return key.slice(0, i) + c + key.slice(i + 1);
    return i + 1 < key.length ? key.slice(0, i) + key[i + 1]! + key[i]! + key.slice(i + 2) : key + c;
  });

describe('editDistance', () => {
  it('counts the edits of known pairs', () => {
    expect(editDistance('scope', 'scopes')).toBe(1);
    expect(editDistance('tiemoutMs', 'timeoutMs')).toBe(1);
    expect(editDistance('TimeoutMS', 'timeoutMs')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('is a distance: zero only for the same key (ignoring case), symmetric, at most the longer length', () => {
    fc.assert(
      fc.property(keyArb, keyArb, (a, b) => {
        const d = editDistance(a, b);
        expect(d === 0).toBe(a.toLowerCase() === b.toLowerCase());
        expect(editDistance(b, a)).toBe(d);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });

  it('stays bounded on a huge key (compares the first 64 characters)', () => {
    expect(editDistance('x'.repeat(1_000_000), 'x'.repeat(64))).toBe(0);
  });
});

describe('nearestKey', () => {
  it('finds the key one slip away, or another just as near', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(keyArb.filter((k) => k.length >= 3), { minLength: 1, maxLength: 12, selector: (k) => k.toLowerCase() }),
        fc.nat(),
        (known, pick) => {
          const key = known[pick % known.length]!;
          return fc.assert(
            fc.property(slipArb(key), (slip) => {
              if (known.includes(slip)) return;
              const near = nearestKey(slip, known);
              expect(near).toBeDefined();
              expect(known).toContain(near);
              // Nearest: no valid key is closer than the one suggested.
              const d = editDistance(slip, near!);
              expect(d).toBeLessThanOrEqual(editDistance(slip, key));
              for (const other of known) expect(editDistance(slip, other)).toBeGreaterThanOrEqual(d);
            }),
            { numRuns: 10 },
          );
        },
      ),
      { numRuns: 50 },
    );
  });

  it('suggests nothing for a key unlike every valid one', () => {
    expect(nearestKey('zzzzzzzz', ['scopes', 'description', 'input'])).toBeUndefined();
    expect(nearestKey('x', ['scopes'])).toBeUndefined();
  });
});

describe('refuseUnknownKeys', () => {
  it('passes every valid key and nothing to check', () => {
    fc.assert(
      fc.property(fc.uniqueArray(keyArb, { maxLength: 10 }), (known) => {
        refuseUnknownKeys(Object.fromEntries(known.map((k) => [k, 1])), known, 'x');
      }),
    );
    refuseUnknownKeys(undefined, ['a'], 'x');
    refuseUnknownKeys(true, ['a'], 'x');
  });

  it('names the key, where it was given and the nearest valid key', () => {
    expect(() => refuseUnknownKeys({ scope: ['a'] }, ['description', 'scopes'], `server.tool("x") config`)).toThrow(
      new TypeError('unknown option `scope` in server.tool("x") config — did you mean `scopes`?'),
    );
  });

  it('lists the valid keys when none is near, and shortens a huge key', () => {
    expect(unknownKeyMessage('zzzzzzzz', 'new X() options', ['a', 'bb'])).toBe('unknown option `zzzzzzzz` in new X() options — valid options: `a`, `bb`');
    expect(unknownKeyMessage('q'.repeat(100), 'w', ['a'])).toContain(`\`${'q'.repeat(64)}…\``);
  });

  it('throws the error the caller builds', () => {
    class Custom extends Error {}
    expect(() => refuseUnknownKeys({ nmae: 1 }, ['name'], 'w', (m) => new Custom(m))).toThrow(Custom);
  });
});
