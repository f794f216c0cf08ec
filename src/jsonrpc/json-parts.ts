/**
 * A large JSON-RPC answer written in parts, each made when the one before it has been written: the
 * whole body never exists at once, neither as one buffer nor as the string JSON.stringify builds of
 * it (GitHub's 1,223 derived tools make a 6.7 MB tools/list page: 14 MB of transient memory written
 * whole, one part of 64 Ki characters at a time written in parts; parts are text, see next()). An answer goes this way when its `result` holds an
 * array of at least `PARTS_MIN_ITEMS` items (a list page, a long content array). The bytes are
 * JSON.stringify's, byte for byte (preset values spliced as everywhere, preset-json.ts).
 */
import { encodeJson, encodeJsonBody } from './preset-json.js';
import type { JsonRpcResponse } from './message.js';

/** Parts of one body, made on demand (the HTTP layer's `BodyParts`). */
export interface JsonBodyParts {
  /** The next part, JSON text, or undefined once the body is complete. Throws if an item cannot be serialised. */
  next(): string | undefined;
}

export const PARTS_MIN_ITEMS = 128;
/** Characters per part (64 Ki: 64 KiB of ASCII text). */
const PART_CHARS = 64 * 1024;
const MARK = '\u0000mcpkit:json-parts\u0000';
const TOKEN = JSON.stringify(MARK);

type Json = Record<string, unknown>;

/**
 * The answer's body: what `encodeJsonBody` gives, or parts when its result holds an array of
 * `PARTS_MIN_ITEMS` items or more and the body is larger than one part. The first part is made
 * here, so what cannot be serialised in it throws here (a 500, as for any answer); an item past it
 * that cannot be serialised throws from `next()`, after the status was sent.
 */
export function encodeJsonAnswer(response: JsonRpcResponse): string | Uint8Array | JsonBodyParts {
  const parts = jsonParts(response);
  if (parts === undefined) return encodeJsonBody(response);
  const first = parts.next()!;
  if (parts.done) return first;
  let pending: string | undefined = first;
  return {
    next() {
      if (pending === undefined) return parts.next();
      const part = pending;
      pending = undefined;
      return part;
    },
  };
}

/**
 * The answer as parts, or undefined when it is written whole: no array of `PARTS_MIN_ITEMS` items
 * in its result, or a shape whose serialisation this cannot reproduce exactly (a `toJSON` of its own).
 */
export function jsonParts(response: JsonRpcResponse): ItemParts | undefined {
  if (!('result' in response) || hasToJson(response)) return undefined;
  const result: unknown = response.result;
  if (typeof result !== 'object' || result === null || Array.isArray(result) || hasToJson(result)) return undefined;
  // Every JSON answer passes here: for…in allocates nothing (Object.keys made an array per answer).
  let key: string | undefined;
  for (const name in result) {
    const value = (result as Json)[name];
    if (Array.isArray(value) && value.length >= PARTS_MIN_ITEMS && Object.hasOwn(result, name)) {
      key = name;
      break;
    }
  }
  if (key === undefined) return undefined;
  const items = (result as Json)[key] as unknown[];
  if (hasToJson(items)) return undefined; // its own, its class's (an Array subclass) or Array.prototype's
  // The envelope with the array standing in as a mark: the same keys in the same order.
  const envelope = encodeJson({ ...response, result: { ...result, [key]: MARK } });
  const at = envelope.indexOf(TOKEN);
  if (at === -1 || envelope.indexOf(TOKEN, at + TOKEN.length) !== -1) return undefined; // the mark also written by a value: write whole
  return new ItemParts(envelope.slice(0, at), items, envelope.slice(at + TOKEN.length));
}

export class ItemParts implements JsonBodyParts {
  /** -1 before the prefix is written. */
  #index = -1;
  #done = false;

  /** The last part was made. */
  get done(): boolean {
    return this.#done;
  }

  constructor(
    readonly prefix: string,
    readonly items: readonly unknown[],
    readonly suffix: string,
  ) {}

  next(): string | undefined {
    if (this.#done) return undefined;
    // Text, not bytes: a part is JSON text in V8's heap, and the socket encodes it as it writes. Bytes
    // per item and per part were ArrayBuffers that lingered until a GC (13.8 MB of them at the peak of
    // GitHub's listing, more than the whole answer).
    let part = '';
    if (this.#index === -1) {
      part = `${this.prefix}[`;
      this.#index = 0;
    }
    const { items } = this;
    while (this.#index < items.length && part.length < PART_CHARS) {
      if (this.#index > 0) part += ',';
      part += item(items[this.#index], this.#index);
      this.#index++;
    }
    if (this.#index === items.length) {
      part += `]${this.suffix}`;
      this.#done = true;
    }
    return part;
  }
}

/** One array item as JSON.stringify writes it inside an array (what it cannot write is `null`). */
function item(value: unknown, index: number): string {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return 'null';
  if (typeof value === 'object' && value !== null && hasToJson(value)) {
    // JSON.stringify calls toJSON with the item's index as its key: a holder of that one key does the same.
    const key = String(index);
    const held = encodeJson({ [key]: value });
    return held === '{}' ? 'null' : held.slice(key.length + 4, -1);
  }
  // undefined where JSON.stringify writes nothing (a toJSON answering undefined): `null` inside an array.
  const text: string | undefined = encodeJson(value);
  return text ?? 'null';
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
