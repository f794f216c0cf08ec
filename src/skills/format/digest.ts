/** `sha256:{64 lowercase hex}` digests (SEP-2640), with Web Crypto so it runs wherever a client does. */

export const DIGEST_FORMAT = /^sha256:[0-9a-f]{64}$/;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX[byte]!;
  return out;
}

/** The SEP-2640 digest of `bytes`. */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return `sha256:${toHex(new Uint8Array(hash))}`;
}
