/**
 * JSON text serialised once and spliced into every message that holds the value. A value shared
 * by many answers (GitHub's 1,223 derived tools repeat 463 `$defs` entries 4.2 MB over in one
 * `tools/list`) is otherwise serialised again in each. Node 20 has no `JSON.rawJSON`, so a preset
 * value stands in as a placeholder while JSON.stringify runs here, and the placeholders are then
 * replaced by the cached text (or its cached UTF-8 bytes). The text is what JSON.stringify gives
 * the value (no `space`: a value serialises the same wherever it sits), so the output is the same,
 * byte for byte; the value is frozen, so the text stays its text. Anywhere else (another
 * serialiser, structuredClone, property reads) a preset value is the plain object it is.
 */

import type * as BufferModule from 'node:buffer';
import { nodeBuiltin } from '../util/builtin.js';
import { concatBytes } from '../util/bytes.js';

const MARK = '\u0000mcpkit:preset-json\u0000';
/** The placeholder as JSON.stringify writes it; only a string equal to MARK (or such a key) writes the same. */
const TOKEN = JSON.stringify(MARK);

interface Preset {
  /** Made on the value's first splice. */
  text?: string;
  bytes?: Uint8Array;
}

const presets = new WeakMap<object, Preset>();
/** The presets met, in output order, while encodeJson runs; undefined otherwise (toJSON then returns the value itself). */
let met: Preset[] | undefined;
const encoder = new TextEncoder();

function toJSON(this: object): unknown {
  const preset = met === undefined ? undefined : presets.get(this);
  if (preset === undefined) return this;
  preset.text ??= plainText(this);
  met!.push(preset);
  return MARK;
}

function plainText(value: unknown): string {
  const outer = met;
  met = undefined;
  try {
    return JSON.stringify(value);
  } finally {
    met = outer;
  }
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}

/**
 * Marks `value` (a JSON value: plain objects, arrays, strings, finite numbers, booleans, null) to
 * be serialised once; it and everything under it is frozen. Returns `value`.
 */
export function presetJson<T extends object>(value: T): T {
  if (presets.has(value) || !Object.isExtensible(value) || Object.hasOwn(value, 'toJSON')) return value; // serialised as it is
  Object.defineProperty(value, 'toJSON', { value: toJSON, enumerable: false, writable: false, configurable: false });
  deepFreeze(value);
  presets.set(value, {});
  return value;
}

/** Parts of the output between placeholders and the presets to put between them, or undefined where none were met. */
function encodeParts(value: unknown): { parts: string[]; used: Preset[] } | string {
  // Every message passes here: no array per message unless one is nested in another's toJSON.
  const outer = met;
  const used = outer === undefined ? reused : [];
  used.length = 0; // what a serialisation that threw left behind
  met = used;
  let skeleton: string;
  try {
    skeleton = JSON.stringify(value);
  } finally {
    met = outer;
  }
  if (used.length === 0) return skeleton;
  const taken = used === reused ? reused.splice(0) : used;
  const parts = skeleton.split(TOKEN);
  // A string or key equal to the placeholder also wrote TOKEN: serialise plainly, nothing spliced.
  if (parts.length !== taken.length + 1) return plainText(value);
  return { parts, used: taken };
}
const reused: Preset[] = [];

/** JSON.stringify(value), with preset values spliced in. Throws what JSON.stringify throws. */
export function encodeJson(value: unknown): string {
  const encoded = encodeParts(value);
  if (typeof encoded !== 'object') return encoded; // a string, or undefined where JSON.stringify writes nothing
  const { parts, used } = encoded;
  let out = parts[0]!;
  for (let i = 0; i < used.length; i++) out += used[i]!.text! + parts[i + 1]!;
  return out;
}

/**
 * JSON.stringify(value) as a string where nothing was spliced, else as UTF-8 bytes assembled from
 * the cached bytes of the presets: no string of the whole answer is made (GitHub's tools/list is
 * 6.7 MB, a two-byte 13.5 MB string for a few non-ASCII characters in its descriptions).
 */
export function encodeJsonBody(value: unknown): string | Uint8Array {
  const encoded = encodeParts(value);
  if (typeof encoded !== 'object') return encoded; // a string, or undefined where JSON.stringify writes nothing
  const { parts, used } = encoded;
  let presetBytes = 0;
  for (const preset of used) presetBytes += (preset.bytes ??= encoder.encode(preset.text)).byteLength;
  const node = nodeBuiltin<typeof BufferModule>('node:buffer');
  if (node !== undefined) {
    // One buffer of the exact size, each part written straight into it: no per-part arrays.
    let size = presetBytes;
    for (const part of parts) size += node.Buffer.byteLength(part, 'utf8');
    const out = node.Buffer.allocUnsafe(size);
    let offset = out.write(parts[0]!, 0, 'utf8');
    for (let i = 0; i < used.length; i++) {
      const bytes = used[i]!.bytes!;
      out.set(bytes, offset);
      offset += bytes.byteLength;
      offset += out.write(parts[i + 1]!, offset, 'utf8');
    }
    return out;
  }
  const chunks: Uint8Array[] = [];
  let size = presetBytes;
  for (let i = 0; i < parts.length; i++) {
    const bytes = encoder.encode(parts[i]);
    chunks.push(bytes);
    size += bytes.byteLength;
    if (i < used.length) chunks.push(used[i]!.bytes!);
  }
  return concatBytes(chunks, size);
}
