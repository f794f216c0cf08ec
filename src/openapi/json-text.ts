/**
 * A JSON document's bytes as text V8 stores one byte per character. GitHub's description is
 * 13 MB of ASCII but for a few dozen characters; decoded as UTF-8, those few make the whole
 * text a two-byte string (26 MB) and the decode itself the slowest step of loading. Outside
 * strings JSON is ASCII, so each non-ASCII character stands inside a string literal, where its
 * `\uXXXX` escape parses to the same value: the escaped text is ASCII, read straight from the
 * bytes (latin1 is a copy), and parses to what the UTF-8 text would have.
 */
import type * as BufferModule from 'node:buffer';
import { nodeBuiltin } from '../util/builtin.js';

/**
 * The bytes as ASCII JSON text, or undefined where that is not sure to parse the same
 * (no node:buffer in this runtime; a non-ASCII character right after a `\`, which the UTF-8 text
 * would refuse): the caller then decodes them as UTF-8.
 */
export function asciiJsonText(bytes: Uint8Array): string | undefined {
  const buffers = nodeBuiltin<typeof BufferModule>('node:buffer');
  if (buffers === undefined) return undefined;
  const view = buffers.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = nextNonAscii(view, 0);
  if (i === -1) return view.toString('latin1');
  // Escaped in the bytes, not in a latin1 string: the one text made is the one parsed (a 13 MB copy less to collect).
  const pieces: Uint8Array[] = [];
  let size = 0;
  let from = 0;
  for (; i !== -1; i = nextNonAscii(view, i)) {
    // A run of bytes ≥ 0x80 holds whole UTF-8 sequences (ASCII bytes end any), so decoding it alone gives
    // what decoding the whole text gives there, replacement characters included.
    let end = i + 1;
    while (end < view.length && view[end]! >= 0x80) end++;
    let slashes = 0;
    while (i - slashes - 1 >= 0 && view[i - slashes - 1] === 0x5c) slashes++;
    if (slashes % 2 === 1) return undefined;
    const escaped = buffers.Buffer.from(escapeUnits(view.toString('utf8', i, end)), 'latin1');
    pieces.push(view.subarray(from, i), escaped);
    size += i - from + escaped.length;
    from = end;
    i = end;
  }
  pieces.push(view.subarray(from));
  size += view.length - from;
  return buffers.Buffer.concat(pieces, size).toString('latin1');
}

/**
 * The index of the first byte ≥ 0x80 at or after `from`, or -1: four bytes a step where the bytes
 * are aligned (a loop over GitHub's 13 MB byte by byte, and `isAscii` before it, were 64 ms of its
 * load; a word at a time is a few).
 */
export function nextNonAscii(view: Uint8Array, from: number): number {
  const end = view.length;
  let i = from;
  while (i < end && (view.byteOffset + i) % 4 !== 0) {
    if (view[i]! >= 0x80) return i;
    i++;
  }
  if (i >= end) return -1;
  const words = new Uint32Array(view.buffer, view.byteOffset + i, (end - i) >>> 2);
  for (let w = 0; w < words.length; w++) {
    if ((words[w]! & 0x80808080) !== 0) {
      for (i += w * 4; ; i++) if (view[i]! >= 0x80) return i;
    }
  }
  for (i += words.length * 4; i < end; i++) if (view[i]! >= 0x80) return i;
  return -1;
}

function escapeUnits(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** Whether the first byte after JSON whitespace is `{` (an object: what a JSON OpenAPI document is). */
export function startsWithBrace(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte === 0x7b) return true;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  }
  return false;
}
