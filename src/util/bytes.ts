/**
 * UTF-8 and base64url without `Buffer`, which Workers lack unless nodejs_compat is on. Where Buffer
 * exists (Node, Bun, Deno) it is used: it is the fastest path there.
 */
interface BufferLike {
  byteLength(text: string, encoding: 'utf8'): number;
  from(data: Uint8Array | string, encoding?: 'base64url'): Uint8Array & { toString(encoding?: 'base64url' | 'utf8'): string };
}
const NodeBuffer = (globalThis as { Buffer?: BufferLike }).Buffer;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 length of `text` in bytes, without encoding it. A lone surrogate counts 3 (as U+FFFD). */
export const utf8Length: (text: string) => number = NodeBuffer !== undefined ? (text) => NodeBuffer.byteLength(text, 'utf8') : countUtf8;

export function countUtf8(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The chunks one after another in one array of `size` bytes (their summed length). */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export function utf8Decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;
// Node's base64url decoder takes the standard alphabet's two letters too.
VALUES[43] = 62;
VALUES[47] = 63;

/** base64url without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined) return NodeBuffer.from(bytes).toString('base64url');
  const out: string[] = [];
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out.push(ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!);
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out.push(ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!);
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out.push(ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!);
  }
  return out.join('');
}

/**
 * Decodes base64url, skipping what is not in its alphabet as Node's decoder does (so a forged string
 * decodes to bytes that fail the check after it, on every runtime alike).
 */
export function fromBase64Url(text: string): Uint8Array {
  if (NodeBuffer !== undefined) return NodeBuffer.from(text, 'base64url');
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let size = 0;
  let bits = 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Node stops at the first '=' (padding).
    if (code === 61) break;
    const value = code < 128 ? VALUES[code]! : -1;
    if (value < 0) continue;
    bits = (bits << 6) | value;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[size++] = (bits >> count) & 0xff;
    }
  }
  return out.subarray(0, size);
}
