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
  const keep = (from: number, to: number): boolean => {
    for (let i = nextNonAscii(view, from); i !== -1 && i < to; i = nextNonAscii(view, i)) {
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
 * content). Undefined where the text is not one JSON object this scan reads plainly, or repeats
 * those keys more than 8 times (the caller then parses it all). One pass; strings are skipped with
 * indexOf. What is skipped is only balanced, not checked: a syntax error inside a skipped value is
 * not reported (loadOpenApiDocument, which parses everything, reports it).
 */
const MAX_UNREAD = 8;

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
      // Each range costs asciiJsonText a search to the next non-ASCII byte: a document repeating these
      // keys (valid JSON, the last one wins) is parsed whole rather than searched once per repeat.
      if (ranges.length > MAX_UNREAD) return undefined;
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

/** Where the value starting at `start` ends (exclusive), or -1 if it does not. */
function valueEnd(view: Uint8Array, start: number): number {
  const first = view[start];
  if (first === 0x22) {
    const close = stringEnd(view, start);
    return close === -1 ? -1 : close + 1;
  }
  if (first !== 0x7b && first !== 0x5b) {
    let i = start;
    while (i < view.length && !isSpace(view[i]!) && view[i] !== 0x2c && view[i] !== 0x7d && view[i] !== 0x5d) i++;
    return i === start ? -1 : i;
  }
  let depth = 0;
  for (let i = start; i < view.length; i++) {
    const b = view[i]!;
    if (b === 0x22) {
      i = stringEnd(view, i);
      if (i === -1) return -1;
    } else if (b === 0x7b || b === 0x5b) depth++;
    else if (b === 0x7d || b === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
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
