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
export function asciiJsonText(bytes: Uint8Array, unread: readonly (readonly [number, number])[] = []): string | undefined {
  const buffers = nodeBuiltin<typeof BufferModule>('node:buffer');
  if (buffers === undefined) return undefined;
  const view = buffers.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (unread.length === 0 && nextNonAscii(view, 0) === -1) return view.toString('latin1');
  // Escaped in the bytes, not in a latin1 string: the one text made is the one parsed (a 13 MB copy less to collect).
  const pieces: Uint8Array[] = [];
  let size = 0;
  // The next byte ≥ 0x80 found so far (-1: none left): a search that ran past `to` is reused by the next
  // piece, not made again from its start (once per unread range, that was quadratic in duplicate keys).
  let found = -2;
  const next = (from: number): number => (found === -1 || found >= from ? found : (found = nextNonAscii(view, from)));
  const keep = (from: number, to: number): boolean => {
    for (let i = next(from); i !== -1 && i < to; i = next(i)) {
      // A run of bytes ≥ 0x80 holds whole UTF-8 sequences (ASCII bytes end any), so decoding it alone gives
      // what decoding the whole text gives there, replacement characters included.
      let end = i + 1;
      while (end < to && view[end]! >= 0x80) end++;
      let slashes = 0;
      while (i - slashes - 1 >= from && view[i - slashes - 1] === 0x5c) slashes++;
      if (slashes % 2 === 1) return false;
      const escaped = buffers.Buffer.from(escapeUnits(view.toString('utf8', i, end)), 'latin1');
      pieces.push(view.subarray(from, i), escaped);
      size += i - from + escaped.length;
      from = end;
      i = end;
    }
    pieces.push(view.subarray(from, to));
    size += to - from;
    return true;
  };
  let from = 0;
  for (const [start, end] of unread) {
    if (!keep(from, start)) return undefined;
    pieces.push(NULL_BYTES);
    size += NULL_BYTES.length;
    from = end;
  }
  if (!keep(from, view.length)) return undefined;
  return buffers.Buffer.concat(pieces, size).toString('latin1');
}

const NULL_BYTES = new TextEncoder().encode('null');

/**
 * The byte ranges of the values a reader of a document's tools never reads, to be parsed as `null`:
 * the top-level `webhooks` and `x-webhooks` and `components.examples` (GitHub's: 2 of its 7 MB of
 * content). Undefined where the text is not one JSON object this scan reads plainly (the caller
 * then parses it all). One pass; strings are skipped with indexOf.
 */
export function unreadValues(view: Uint8Array): [number, number][] | undefined {
  const ranges: [number, number][] = [];
  const n = view.length;
  let depth = 0;
  const inObject: boolean[] = [];
  const keys: string[] = [];
  let expectKey = false;
  for (let i = 0; i < n; i++) {
    const b = view[i]!;
    if (b === 0x22) {
      const close = stringEnd(view, i);
      if (close === -1) return undefined;
      if (expectKey && depth <= 2) keys[depth] = latin1(view, i + 1, close);
      expectKey = false;
      i = close;
    } else if (b === 0x7b || b === 0x5b) {
      depth++;
      inObject[depth] = b === 0x7b;
      expectKey = b === 0x7b;
    } else if (b === 0x7d || b === 0x5d) {
      depth--;
      if (depth < 0) return undefined;
      expectKey = false;
    } else if (b === 0x2c) {
      expectKey = inObject[depth] === true;
    } else if (b === 0x3a && depth <= 2 && unreadAt(depth, keys)) {
      let start = i + 1;
      while (start < n && isSpace(view[start]!)) start++;
      const end = valueEnd(view, start);
      if (end === -1) return undefined;
      ranges.push([start, end]);
      i = end - 1;
    }
  }
  return depth === 0 ? ranges : undefined;
}

function unreadAt(depth: number, keys: readonly string[]): boolean {
  if (depth === 1) return keys[1] === 'webhooks' || keys[1] === 'x-webhooks';
  return depth === 2 && keys[1] === 'components' && keys[2] === 'examples';
}

/** The index of the quote closing the string that opens at `at`, or -1. */
function stringEnd(view: Uint8Array, at: number): number {
  for (let j = view.indexOf(0x22, at + 1); j !== -1; j = view.indexOf(0x22, j + 1)) {
    let slashes = 0;
    while (view[j - slashes - 1] === 0x5c) slashes++;
    if (slashes % 2 === 0) return j;
  }
  return -1;
}

/**
 * Where the JSON value starting at `start` ends (exclusive), or -1 where it is not one valid JSON
 * value: the value is not parsed, so what JSON.parse would refuse in it (a trailing comma, NaN, a
 * bracket closing a brace, a bad escape) must send the caller to the full parse, which reports it.
 */
function valueEnd(view: Uint8Array, start: number): number {
  const closers: number[] = [];
  let i = start;
  for (;;) {
    i = skipSpace(view, i);
    const b = view[i];
    if (b === 0x7b || b === 0x5b) {
      const close = b === 0x7b ? 0x7d : 0x5d;
      i = skipSpace(view, i + 1);
      if (view[i] === close) i++;
      else {
        closers.push(close);
        if (close === 0x7d && (i = keyEnd(view, i)) === -1) return -1;
        continue;
      }
    } else if (b === 0x22) {
      if ((i = validStringEnd(view, i)) === -1) return -1;
    } else if ((i = primitiveEnd(view, i)) === -1) return -1;
    // After a value: the end, a comma, or its container's closer.
    for (;;) {
      if (closers.length === 0) return i;
      i = skipSpace(view, i);
      const close = closers[closers.length - 1];
      if (view[i] === close) {
        closers.pop();
        i++;
      } else if (view[i] === 0x2c) {
        i++;
        if (close === 0x7d && (i = keyEnd(view, skipSpace(view, i))) === -1) return -1;
        break;
      } else return -1;
    }
  }
}

function skipSpace(view: Uint8Array, i: number): number {
  while (i < view.length && isSpace(view[i]!)) i++;
  return i;
}

/** After a key and its colon, or -1. */
function keyEnd(view: Uint8Array, at: number): number {
  if (view[at] !== 0x22) return -1;
  const close = validStringEnd(view, at);
  if (close === -1) return -1;
  const colon = skipSpace(view, close);
  return view[colon] === 0x3a ? colon + 1 : -1;
}

/** After the string opening at `at`, or -1 where JSON.parse would refuse it (a control character, a bad escape). */
function validStringEnd(view: Uint8Array, at: number): number {
  for (let j = at + 1; j < view.length; j++) {
    const b = view[j]!;
    if (b === 0x22) return j + 1;
    if (b < 0x20) return -1;
    if (b !== 0x5c) continue;
    const e = view[++j];
    if (e === 0x75) {
      for (let k = 1; k <= 4; k++) if (!isHex(view[j + k])) return -1;
      j += 4;
    } else if (e !== 0x22 && e !== 0x5c && e !== 0x2f && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74) return -1;
  }
  return -1;
}

function isHex(b: number | undefined): boolean {
  return b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));
}

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x39;
}

const LITERALS = [new TextEncoder().encode('true'), new TextEncoder().encode('false'), new TextEncoder().encode('null')];

/** After the number or literal at `at`, or -1. */
function primitiveEnd(view: Uint8Array, at: number): number {
  for (const literal of LITERALS) {
    if (view[at] !== literal[0]) continue;
    for (let k = 1; k < literal.length; k++) if (view[at + k] !== literal[k]) return -1;
    return at + literal.length;
  }
  let i = at;
  if (view[i] === 0x2d) i++;
  if (view[i] === 0x30) i++;
  else if (isDigit(view[i])) while (isDigit(view[i])) i++;
  else return -1;
  if (view[i] === 0x2e) {
    if (!isDigit(view[++i])) return -1;
    while (isDigit(view[i])) i++;
  }
  if (view[i] === 0x65 || view[i] === 0x45) {
    i++;
    if (view[i] === 0x2b || view[i] === 0x2d) i++;
    if (!isDigit(view[i])) return -1;
    while (isDigit(view[i])) i++;
  }
  return i;
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** A key's text (keys that matter here are ASCII; any other simply matches nothing). */
function latin1(view: Uint8Array, from: number, to: number): string {
  if (to - from > 32) return '';
  let out = '';
  for (let i = from; i < to; i++) out += String.fromCharCode(view[i]!);
  return out;
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
