/**
 * The hashing and randomness the fetch entry needs, on any runtime, with no `node:` import: node:crypto
 * through process.getBuiltinModule where it exists (native and synchronous on Node, Bun, Deno), else
 * the plain-JavaScript SHA-256 beside this file; randomness is Web Crypto's `getRandomValues` and
 * `randomUUID`, which every supported runtime has.
 */
import { nodeBuiltin } from './builtin.js';
import { hmacSha256, Sha256 } from './sha256.js';

/** A SHA-256 hash fed in pieces, as node:crypto's Hash is used. */
export interface Hasher {
  update(data: string): Hasher;
  digest(): Uint8Array;
}

interface NodeCrypto {
  createHash(algorithm: 'sha256'): Hasher;
  createHmac(algorithm: 'sha256', key: Uint8Array): { update(data: string): { digest(): Uint8Array } };
}

// Looked up at first use, not at import: node:crypto loads some twenty internal modules, and a server
// that never hashes (most stdio servers) should not pay for them at start-up (issue 29, cold start).
let native: NodeCrypto | null | undefined;
const nodeCrypto = (): NodeCrypto | null => (native ??= nodeBuiltin<NodeCrypto>('node:crypto') ?? null);

// node:crypto's Hash is a Hasher as it is (update returns it, digest returns a Buffer).
export const sha256 = (): Hasher => nodeCrypto()?.createHash('sha256') ?? new Sha256();

export const hmac = (key: Uint8Array, data: string): Uint8Array => {
  const crypto = nodeCrypto();
  return crypto !== null ? crypto.createHmac('sha256', key).update(data).digest() : hmacSha256(key, data);
};

/** Equality of two byte strings in time that depends on their length only. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function randomBytes(size: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(size));
}

export function randomUUID(): string {
  return crypto.randomUUID();
}
