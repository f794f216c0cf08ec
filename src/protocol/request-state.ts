import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ErrorCode, JsonRpcProtocolError } from '../jsonrpc/errors.js';

/** What a signed `requestState` carries between rounds of a Multi Round-Trip Request. */
export interface RequestStatePayload {
  /** The method and target (tool name, prompt name, resource URI) it belongs to. */
  target: string;
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

function invalidState(why: string): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InvalidParams, `Invalid requestState: ${why}. Retry the original request without requestState and inputResponses to start over.`);
}

/** Verifies and opens a state; a tampered, expired or foreign one is -32602. */
export function openRequestState(state: unknown, target: string, secret: string | Uint8Array | undefined, now = Date.now()): RequestStatePayload {
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
  if (typeof payload.exp !== 'number' || payload.exp < now) throw invalidState('it has expired');
  return payload;
}
