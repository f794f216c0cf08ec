/** `WWW-Authenticate: Bearer …` challenges (RFC 6750 §3, RFC 9728 §5.1) and the answers that carry them. */
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { JsonRpcId } from '../../../jsonrpc/message.js';
import { httpError } from '../errors.js';
import type { HttpResponse } from '../types.js';

export interface Challenge {
  /** Absent when the request carried no token at all (RFC 6750 §3.1). */
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  description?: string;
  scopes?: readonly string[];
  metadataUrl: string;
}

/** The header value: `Bearer error="…", error_description="…", scope="…", resource_metadata="…"`. */
export function challengeHeader(challenge: Challenge): string {
  const params: string[] = [];
  if (challenge.error !== undefined) params.push(`error="${challenge.error}"`);
  if (challenge.description !== undefined) params.push(`error_description="${quotable(challenge.description)}"`);
  if (challenge.scopes !== undefined && challenge.scopes.length > 0) params.push(`scope="${quotable(challenge.scopes.join(' '))}"`);
  params.push(`resource_metadata="${quotable(challenge.metadataUrl)}"`);
  return `Bearer ${params.join(', ')}`;
}

/** RFC 6750 allows %x20-21 / %x23-5B / %x5D-7E inside these quoted strings: no quote, no backslash, ASCII only. */
function quotable(value: string): string {
  return value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '');
}

const STATUS = { invalid_request: 400, invalid_token: 401, insufficient_scope: 403 } as const;

/** A 400/401/403 whose JSON-RPC body says the same as the challenge, for people reading it. */
export function challengeResponse(challenge: Challenge, message: string, id?: JsonRpcId): HttpResponse {
  const status = challenge.error === undefined ? 401 : STATUS[challenge.error];
  return httpError(status, ErrorCode.InvalidRequest, message, {
    headers: { 'www-authenticate': challengeHeader(challenge) },
    ...(id === undefined ? {} : { id }),
  });
}
