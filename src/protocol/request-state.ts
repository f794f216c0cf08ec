import { createHash, createHmac, randomBytes, timingSafeEqual, type Hash } from 'node:crypto';
import { ErrorCode, JsonRpcProtocolError } from '../jsonrpc/errors.js';
import type { AuthInfo } from './connection.js';
import { principalOf } from './principal.js';

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

/**
 * One random key per process unless configured. Several server instances
 * behind one load balancer must share `requestStateSecret`, or a retry that
 * lands on another instance is refused.
 */
let processKey: Uint8Array | undefined;

function keyOf(secret: string | Uint8Array | undefined): Uint8Array {
  if (typeof secret === 'string') return new TextEncoder().encode(secret);
  if (secret !== undefined) return secret;
  processKey ??= randomBytes(32);
  return processKey;
}

function mac(key: Uint8Array, body: string): Buffer {
  return createHmac('sha256', key).update(body).digest();
}

export function signRequestState(payload: RequestStatePayload, secret: string | Uint8Array | undefined): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(keyOf(secret), body).toString('base64url')}`;
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
function feedCanonical(hash: Hash, value: Record<string, unknown>, skipTopLevel: ReadonlySet<string>): void {
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

function shortDigest(hash: Hash): string {
  return hash.digest('base64url').slice(0, 32);
}

/**
 * What a state issued for this request is bound to: its target, the principal
 * asking, and a digest of its params except `_meta` and the MRTR fields.
 */
export function requestStateBinding(method: string, target: string, params: Record<string, unknown>, authInfo: AuthInfo | undefined): RequestStateBinding {
  const digest = createHash('sha256').update(method).update('\0');
  feedCanonical(digest, params, ROUND_FIELDS);
  const principal = createHash('sha256').update(`principal\0${principalOf(authInfo) ?? ''}`);
  return { target, principal: shortDigest(principal), digest: shortDigest(digest) };
}

function invalidState(why: string): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InvalidParams, `Invalid requestState: ${why}. Retry the original request without requestState and inputResponses to start over.`);
}

/**
 * Verifies and opens a state; a tampered, expired or foreign one is -32602, as
 * is one issued for another target, another principal or other arguments.
 */
export function openRequestState(state: unknown, binding: RequestStateBinding, secret: string | Uint8Array | undefined, now = Date.now()): RequestStatePayload {
  const target = binding.target;
  if (typeof state !== 'string' || state.length > 1_000_000) throw invalidState('it must be the string the server sent');
  const dot = state.indexOf('.');
  const body = state.slice(0, dot);
  const signature = Buffer.from(state.slice(dot + 1), 'base64url');
  const expected = mac(keyOf(secret), body);
  if (dot <= 0 || signature.length !== expected.length || !timingSafeEqual(signature, expected) || state.slice(dot + 1) !== expected.toString('base64url')) {
    throw invalidState('its signature does not match (it was altered, or issued by another server)');
  }
  let payload: RequestStatePayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as RequestStatePayload;
  } catch {
    throw invalidState('it is not readable');
  }
  if (payload.target !== target) throw invalidState(`it belongs to ${payload.target}, not ${target}`);
  if (payload.principal !== binding.principal) throw invalidState('it was issued to another user (or to this client before it signed in or out)');
  if (payload.digest !== binding.digest) throw invalidState(`it was issued for ${target} with other arguments; send the same arguments in every round`);
  if (typeof payload.exp !== 'number' || payload.exp < now) throw invalidState('it has expired');
  return payload;
}
