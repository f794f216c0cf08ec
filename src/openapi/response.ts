/**
 * An HTTP response as a tool result: 2xx JSON as `structuredContent` (wrapped once under `result`
 * when the documented response is not an object) plus the same JSON as text; other text types as
 * text; images and audio as image/audio content; other bytes as an embedded blob. Any other
 * status is `isError` with the status and at most `ERROR_EXCERPT` characters of the body.
 */
import type { Exchange } from './http.js';

export const ERROR_EXCERPT = 2000;
const decoder = new TextDecoder();

type Content = Record<string, unknown>;
export interface ToolResult {
  content: Content[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The `_meta` key of a result that came from the API: `{ status, headers }`. */
export const RESPONSE_META = 'mcpkit.openapi/response';

/**
 * Response headers surfaced by default: the ones an agent acts on (pagination, rate limits,
 * where a created thing is, caching). Everything else (cookies above all) stays out.
 */
export const DEFAULT_RESPONSE_HEADERS: readonly string[] = [
  'content-type', 'location', 'link', 'etag', 'last-modified', 'retry-after',
  'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy',
];
export const MAX_RESPONSE_HEADER_NAMES = 32;
/** Each surfaced value is cut at this many characters, and all of them together at MAX_RESPONSE_HEADER_CHARS. */
export const MAX_RESPONSE_HEADER_VALUE = 2048;
export const MAX_RESPONSE_HEADER_CHARS = 8192;

/** The listed headers of a response, bounded: a value past its cap is cut (marked with …), the rest once the total cap is reached left out. */
export function surfacedHeaders(headers: Headers, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  let total = 0;
  for (const name of names) {
    const value = headers.get(name);
    if (value === null) continue;
    const kept = value.length > MAX_RESPONSE_HEADER_VALUE ? `${value.slice(0, MAX_RESPONSE_HEADER_VALUE)}…` : value;
    if (total + name.length + kept.length > MAX_RESPONSE_HEADER_CHARS) break;
    total += name.length + kept.length;
    out[name] = kept;
  }
  return out;
}

const TEXTUAL = /^(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|yaml|x-yaml|javascript|x-www-form-urlencoded|graphql|problem\+json))/i;

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const isJson = (type: string): boolean => /^application\/(json|[\w.+-]*\+json)\b/i.test(type);

/** The result for an exchange, with its status and surfaced headers under `_meta` when `headerNames` is given. */
export function toResult(exchange: Exchange, output: 'object' | 'wrapped' | undefined, headerNames?: readonly string[]): ToolResult {
  const result = bodyResult(exchange, output);
  if (headerNames !== undefined) result._meta = { [RESPONSE_META]: { status: exchange.status, headers: surfacedHeaders(exchange.headers, headerNames) } };
  return result;
}

function bodyResult(exchange: Exchange, output: 'object' | 'wrapped' | undefined): ToolResult {
  const { status, contentType, bytes } = exchange;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (status < 200 || status > 299) {
    const text = decoder.decode(bytes.subarray(0, ERROR_EXCERPT * 4));
    const excerpt = text.length > ERROR_EXCERPT ? `${text.slice(0, ERROR_EXCERPT)}… (${bytes.length} bytes in all)` : text;
    return { isError: true, content: [{ type: 'text', text: `HTTP ${status}${exchange.statusText === '' ? '' : ` ${exchange.statusText}`}${excerpt === '' ? '' : `: ${excerpt}`}` }] };
  }
  if (bytes.length === 0 || type === '' && bytes.length === 0) {
    if (output !== undefined) return { isError: true, content: [{ type: 'text', text: `HTTP ${status} with no body, where the API's description promises JSON` }] };
    return { content: [{ type: 'text', text: `HTTP ${status}${exchange.statusText === '' ? '' : ` ${exchange.statusText}`}` }] };
  }
  if (isJson(type) || (type === '' && output !== undefined)) {
    const text = decoder.decode(bytes);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { isError: true, content: [{ type: 'text', text: `HTTP ${status}: the API sent invalid JSON: ${text.slice(0, ERROR_EXCERPT)}` }] };
    }
    const content = [{ type: 'text', text }];
    if (output === 'object') {
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { content, structuredContent: value as Record<string, unknown> };
      return { isError: true, content: [{ type: 'text', text: `HTTP ${status}: the API answered ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value} where its description promises an object: ${text.slice(0, ERROR_EXCERPT)}` }] };
    }
    if (output === 'wrapped') return { content, structuredContent: { result: value } };
    return { content };
  }
  if (output !== undefined) return { isError: true, content: [{ type: 'text', text: `HTTP ${status} answered ${type || 'no content type'}, where the API's description promises JSON` }] };
  if (TEXTUAL.test(type)) return { content: [{ type: 'text', text: decoder.decode(bytes) }] };
  if (type.startsWith('image/')) return { content: [{ type: 'image', data: base64(bytes), mimeType: type }] };
  if (type.startsWith('audio/')) return { content: [{ type: 'audio', data: base64(bytes), mimeType: type }] };
  return { content: [{ type: 'resource', resource: { uri: exchange.url, mimeType: type || 'application/octet-stream', blob: base64(bytes) } }] };
}
