/**
 * The plain-JavaScript fallbacks a runtime without Node built-ins uses (a Worker without nodejs_compat)
 * agree with node:crypto and Buffer on every input: SHA-256, HMAC-SHA256, base64url both ways and the
 * UTF-8 length.
 */
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countUtf8, fromBase64Url, toBase64Url } from '../../src/util/bytes.js';
import { hmacSha256, Sha256 } from '../../src/util/sha256.js';
import { timingSafeEqual } from '../../src/util/crypto.js';
import { nodeBuiltin } from '../../src/util/builtin.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const bytes = fc.uint8Array({ maxLength: 300 });

describe('SHA-256 and HMAC in plain JavaScript', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(hex(new Sha256().update('abc').digest())).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(new Sha256().digest())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(new Sha256().update('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq').digest())).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('agrees with node:crypto on any input fed in any pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(bytes, fc.string({ unit: 'grapheme', maxLength: 100 })), { maxLength: 6 }), (pieces) => {
        const ours = new Sha256();
        const theirs = createHash('sha256');
        for (const piece of pieces) {
          ours.update(piece);
          theirs.update(piece);
        }
        expect(hex(ours.digest())).toBe(theirs.digest('hex'));
      }),
      { numRuns: 300 },
    );
  });

  it('HMAC agrees with node:crypto for keys shorter and longer than a block', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 150 }), fc.string({ maxLength: 200 }), (key, data) => {
        expect(hex(hmacSha256(key, data))).toBe(createHmac('sha256', key).update(data).digest('hex'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('bytes without Buffer', () => {
  it('base64url round-trips and matches Buffer', () => {
    fc.assert(
      fc.property(bytes, (data) => {
        const encoded = toBase64Url(data);
        expect(encoded).toBe(Buffer.from(data).toString('base64url'));
        expect(hex(fromBase64Url(encoded))).toBe(hex(data));
      }),
    );
  });

  it('decodes any string as Buffer does (stray characters skipped, stops at padding)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        expect(hex(fromBase64Url(text))).toBe(Buffer.from(text, 'base64url').toString('hex'));
      }),
      { numRuns: 500 },
    );
  });

  it('counts UTF-8 bytes as Buffer.byteLength, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constant('\ud800'), fc.constant('\udc00'), fc.constant('\ud83d\ude00'), fc.string({ unit: 'binary', maxLength: 1 })), maxLength: 50 }), (text) => {
        expect(countUtf8(text)).toBe(Buffer.byteLength(text));
      }),
      { numRuns: 500 },
    );
  });

  it('compares in full', () => {
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array([1]), new Uint8Array([1, 2]))).toBe(false);
  });

  it('finds Node built-ins here, and nothing for a name that is none', () => {
    expect(nodeBuiltin<{ createHash: unknown }>('node:crypto')?.createHash).toBe(createHash);
    expect(nodeBuiltin('node:no-such-module')).toBeUndefined();
  });
});
