/** Header rules of Streamable HTTP: media types, protocol versions, ids. */

import { DEFAULT_HTTP_VERSION, SUPPORTED_VERSIONS } from '../../protocol/wire/versions.js';

// The revision table lives in the protocol layer; these are its HTTP-facing names.
/** Every revision mcpkit serves. */
export const DEFAULT_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_VERSIONS;

/** What a request without `MCP-Protocol-Version` is taken to speak (2025-06-18 §Protocol Version Header). */
export const ASSUMED_PROTOCOL_VERSION: string = DEFAULT_HTTP_VERSION;

export interface AcceptedTypes {
  json: boolean;
  sse: boolean;
}

/**
 * Which of our two response types an `Accept` header allows. Wildcards count;
 * `q=0` excludes. A missing header accepts anything (RFC 9110 §12.5.1).
 */
let lastAccept: { header: string; types: AcceptedTypes } | undefined;

/** Clients send the same Accept on every request: the last parse is reused. */
export function acceptedTypes(accept: string | undefined): AcceptedTypes {
  if (accept === undefined) return ANY;
  if (lastAccept?.header === accept) return lastAccept.types;
  const types = parseAccept(accept);
  lastAccept = { header: accept, types };
  return types;
}

const ANY: AcceptedTypes = Object.freeze({ json: true, sse: true });

function parseAccept(accept: string): AcceptedTypes {
  let json = false;
  let sse = false;
  for (const part of accept.split(',')) {
    const semi = part.indexOf(';');
    const type = (semi === -1 ? part : part.slice(0, semi)).trim().toLowerCase();
    if (semi !== -1 && /;\s*q\s*=\s*0(?:\.0*)?\s*(?:;|$)/i.test(part.slice(semi))) continue;
    if (type === '*/*') {
      json = true;
      sse = true;
    } else if (type === 'application/json' || type === 'application/*') {
      json = true;
    } else if (type === 'text/event-stream' || type === 'text/*') {
      sse = true;
    }
  }
  return { json, sse };
}

let lastJsonType: string | undefined;

/** `application/json`, with any parameters (charset) allowed. The last accepted value is remembered. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  if (contentType === lastJsonType) return true;
  if (!parseJsonType(contentType)) return false;
  lastJsonType = contentType;
  return true;
}

function parseJsonType(contentType: string): boolean {
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase() === 'application/json';
}

/** A cryptographically random session id: 128 bits as 32 URL-safe characters (visible ASCII). */
export function mintSessionId(): string {
  // 128 random bits, two characters a byte (6 + 2 bits; visible ASCII). Not randomUUID(): its result is a
  // chain of concatenated pieces that would stay in memory as such per session.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => ID_ALPHABET[b & 63]! + ID_ALPHABET[b >> 6]!).join('');
}

/** URL-safe, visible ASCII. */
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A short random token (hex) for stream ids. */
export function randomToken(bytes = 8): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  // join(), not +=: a concatenation chain would stay in memory as a cons string per session.
  return Array.from(buffer, (b) => b.toString(16).padStart(2, '0')).join('');
}
