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
  if (buffers === undefined || typeof buffers.isAscii !== 'function') return undefined;
  const view = buffers.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = view.toString('latin1');
  if (buffers.isAscii(view)) return text;
  let faithful = true;
  // Latin1 offsets are byte offsets; a run of bytes ≥ 0x80 holds whole UTF-8 sequences (ASCII bytes end any), so
  // decoding it alone gives what decoding the whole text gives there, replacement characters included.
  const escaped = text.replace(/[\x80-\xff]+/g, (run: string, offset: number) => {
    let slashes = 0;
    while (offset - slashes - 1 >= 0 && text.charCodeAt(offset - slashes - 1) === 0x5c) slashes++;
    if (slashes % 2 === 1) faithful = false;
    return escapeUnits(view.toString('utf8', offset, offset + run.length));
  });
  return faithful ? escaped : undefined;
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
