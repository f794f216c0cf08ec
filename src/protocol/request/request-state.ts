import { ErrorCode, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import type { AuthInfo } from '../connection.js';
import { principalOf } from './principal.js';
import { fromBase64Url, toBase64Url, utf8Decode, utf8Encode } from '../../util/bytes.js';
import { hmac, randomBytes, sha256, timingSafeEqual, type Hasher } from '../../util/crypto.js';

/** What a state is bound to: the request it was issued for, and who asked. */
export interface RequestStateBinding {
  /** The method and target (tool name, prompt name, resource URI) it belongs to. */
  target: string;
  /** A digest of the principal that asked (`principalOf(authInfo)`), so no other user can replay it. */
  principal: string;
  /** A digest of the request's salient parameters, so it cannot be replayed with other arguments. */
  digest: string;
}

/** What a signed `requestState` carries between rounds of a Multi Round-Trip Request. */
export interface RequestStatePayload extends RequestStateBinding {
  /** Answers collected in earlier rounds, by input key. */
  answers: Record<string, unknown>;
  /** What the handler chose to keep (`ctx.requestState`). */
  kept: Record<string, unknown>;
  /** Expiry, epoch ms. */
  exp: number;
}

/** A key as configured: a string (its UTF-8 bytes) or bytes. */
export type StateKey = string | Uint8Array;

/** Where the signing keys come from (the server's `requestState` options). */
export interface StateKeyOptions {
  /** The key ring: the first key signs, every key verifies (rotation), each at least 32 bytes. */
  keys?: readonly StateKey[] | undefined;
}

/** The smallest key the ring accepts: an HMAC-SHA256 key shorter than its output is weaker than it. */
export const MIN_STATE_KEY_BYTES = 32;

/**
 * One random key per process unless configured. Several server instances
 * behind one load balancer must share a key ring (`requestState.keys`), or a
 * retry that lands on another instance is refused.
 */
let processKey: Uint8Array | undefined;
const rings = new WeakMap<object, readonly Uint8Array[]>();

function bytesOf(key: StateKey): Uint8Array {
  return typeof key === 'string' ? new TextEncoder().encode(key) : key;
}

/** Checks a configured key ring; throws a RangeError naming the key that is unusable. */
export function validateStateKeys(keys: readonly StateKey[]): readonly Uint8Array[] {
  if (!Array.isArray(keys) || keys.length === 0) throw new RangeError('requestState.keys must hold at least one key (the first signs, every key verifies)');
  return keys.map((key, index) => {
    if (typeof key !== 'string' && !(key instanceof Uint8Array)) throw new RangeError(`requestState.keys[${index}] must be a string or a Uint8Array`);
    const bytes = bytesOf(key);
    if (bytes.length < MIN_STATE_KEY_BYTES) {
      throw new RangeError(`requestState.keys[${index}] has ${bytes.length} bytes; each key needs at least ${MIN_STATE_KEY_BYTES} (e.g. \`openssl rand -base64 32\`)`);
    }
    return bytes;
  });
}

/** The keys in use, first the one that signs: the configured ring, else one random key per process. */
export function stateKeyRing(options: StateKeyOptions | StateKey | undefined): readonly Uint8Array[] {
  if (options === undefined) return [(processKey ??= randomBytes(32))];
  if (typeof options === 'string' || options instanceof Uint8Array) return [bytesOf(options)];
  let ring = rings.get(options);
  if (ring === undefined) {
    ring = options.keys === undefined ? [(processKey ??= randomBytes(32))] : validateStateKeys(options.keys);
    rings.set(options, ring);
  }
  return ring;
}

/** True when the options name a key every instance can share (not the random per-process one). */
export function hasSharedStateKey(options: StateKeyOptions | undefined): boolean {
  return options?.keys !== undefined;
}

function mac(key: Uint8Array, body: string): Uint8Array {
  return hmac(key, body);
}

export function signRequestState(payload: RequestStatePayload, keys: StateKeyOptions | StateKey | undefined): string {
  const body = toBase64Url(utf8Encode(JSON.stringify(payload)));
  return `${body}.${toBase64Url(mac(stateKeyRing(keys)[0]!, body))}`;
}

/** Params that change between the rounds of one request: everything else must stay the same. */
const ROUND_FIELDS = new Set(['_meta', 'requestState', 'inputResponses']);

/** A piece of syntax on the encoding stack (boxed, so it cannot be mistaken for a value). */
class Syntax {
  constructor(readonly text: string) {}
}

/**
 * Feeds a canonical encoding of `value` (keys sorted) into `hash`, without
 * recursion (any depth) and visiting each object once (no cycle can loop it).
 */
function feedCanonical(hash: Hasher, value: Record<string, unknown>, skipTopLevel: ReadonlySet<string>): void {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Syntax) {
      hash.update(item.text);
    } else if (item === null || typeof item === 'boolean' || typeof item === 'number' || typeof item === 'string') {
      hash.update(JSON.stringify(item));
    } else if (typeof item !== 'object') {
      hash.update(`?${typeof item}`);
    } else if (seen.has(item)) {
      hash.update('#');
    } else if (Array.isArray(item)) {
      seen.add(item);
      hash.update('[');
      stack.push(new Syntax(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push(item[i]);
        if (i > 0) stack.push(new Syntax(','));
      }
    } else {
      seen.add(item);
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined && !(item === value && skipTopLevel.has(key)))
        .sort();
      hash.update('{');
      stack.push(new Syntax('}'));
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push(record[key], new Syntax(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`));
      }
    }
  }
}

function shortDigest(hash: Hasher): string {
  return toBase64Url(hash.digest()).slice(0, 32);
}

/**
 * What a state issued for this request is bound to: its target, the principal
 * asking, and a digest of its params except `_meta` and the MRTR fields.
 */
export function requestStateBinding(method: string, target: string, params: Record<string, unknown>, authInfo: AuthInfo | undefined): RequestStateBinding {
  const digest = sha256().update(method).update('\0');
  feedCanonical(digest, params, ROUND_FIELDS);
  const principal = sha256().update(`principal\0${principalOf(authInfo) ?? ''}`);
  return { target, principal: shortDigest(principal), digest: shortDigest(digest) };
}

function invalidState(why: string): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InvalidParams, `Invalid requestState: ${why}. Retry the original request without requestState and inputResponses to start over.`);
}

/**
 * Verifies and opens a state; a tampered, expired or foreign one is -32602, as
 * is one issued for another target, another principal or other arguments.
 */
export function openRequestState(state: unknown, binding: RequestStateBinding, keys: StateKeyOptions | StateKey | undefined, now = Date.now()): RequestStatePayload {
  const target = binding.target;
  if (typeof state !== 'string' || state.length > 1_000_000) throw invalidState('it must be the string the server sent');
  const dot = state.indexOf('.');
  const body = state.slice(0, dot);
  const encoded = state.slice(dot + 1);
  const signature = fromBase64Url(encoded);
  // Every key of the ring verifies, so a state signed before a rotation stays valid until it expires.
  const signedByRing = dot > 0 && stateKeyRing(keys).some((key) => {
    const expected = mac(key, body);
    return signature.length === expected.length && timingSafeEqual(signature, expected) && encoded === toBase64Url(expected);
  });
  if (!signedByRing) throw invalidState('its signature does not match (it was altered, or issued by another server)');
  let payload: RequestStatePayload;
  try {
    payload = JSON.parse(utf8Decode(fromBase64Url(body))) as RequestStatePayload;
  } catch {
    throw invalidState('it is not readable');
  }
  if (payload.target !== target) throw invalidState(`it belongs to ${payload.target}, not ${target}`);
  if (payload.principal !== binding.principal) throw invalidState('it was issued to another user (or to this client before it signed in or out)');
  if (payload.digest !== binding.digest) throw invalidState(`it was issued for ${target} with other arguments; send the same arguments in every round`);
  if (typeof payload.exp !== 'number' || payload.exp < now) throw invalidState('it has expired');
  return payload;
}
