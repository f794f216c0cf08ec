/**
 * The one way the OAuth client reads an HTTP answer: redirects never followed
 * (a redirect could carry a request, or a credential, to another host), every
 * body bounded in bytes, a timeout on each request, JSON objects only.
 */
import { McpAuthError, type AuthFailure } from './errors.js';

export type FetchLike = (input: string | URL, init: RequestInit) => Promise<Response>;

export interface FetchContext {
  fetch: FetchLike;
  /** Largest body read from a metadata, registration or token endpoint. */
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  /** The parsed object; undefined when the body was empty or not a JSON object. */
  body: Record<string, unknown> | undefined;
}

/** Sends one request and reads its JSON object answer. Network failures and redirects are `kind` errors. */
export async function requestJson(ctx: FetchContext, url: URL, init: RequestInit, kind: AuthFailure, what: string): Promise<JsonAnswer> {
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = ctx.signal === undefined ? timeout : AbortSignal.any([ctx.signal, timeout]);
  let response: Response;
  try {
    response = await ctx.fetch(url, { ...init, redirect: 'manual', signal });
  } catch (error) {
    if (ctx.signal?.aborted === true) throw new McpAuthError(kind, `${what}: aborted`, { cause: error });
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new McpAuthError(kind, `${what}: cannot reach ${url.origin}${url.pathname}: ${timeout.aborted ? `no answer in ${ctx.timeoutMs} ms` : cause}`, { cause: error });
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    throw new McpAuthError(kind, `${what}: ${url.origin}${url.pathname} answered HTTP ${response.status} redirecting to ${location === null ? '(no location)' : safeUrl(location, url)}; redirects are not followed`);
  }
  const text = await readBounded(response, ctx.maxBytes, kind, `${what} (${url.origin}${url.pathname})`);
  let body: Record<string, unknown> | undefined;
  if (text.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      body = undefined;
    }
  }
  return { status: response.status, headers: response.headers, body };
}

/** A body as text, at most `max` bytes: longer bodies are cut off and refused. */
export async function readBounded(response: Response, max: number, kind: AuthFailure, what: string): Promise<string> {
  const length = Number(response.headers.get('content-length') ?? NaN);
  if (length > max) {
    await response.body?.cancel().catch(() => undefined);
    throw new McpAuthError(kind, `${what}: the answer is ${length} bytes, more than the ${max} allowed (maxMetadataBytes)`);
  }
  if (response.body === null) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > max) {
        await reader.cancel().catch(() => undefined);
        throw new McpAuthError(kind, `${what}: the answer is longer than the ${max} bytes allowed (maxMetadataBytes)`);
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (error instanceof McpAuthError) throw error;
    throw new McpAuthError(kind, `${what}: the answer broke off: ${(error as Error).message}`, { cause: error });
  }
  return text + decoder.decode();
}

/** A URL for a message: origin and path only (a query may hold a code or a token). */
export function safeUrl(value: string, base?: URL): string {
  try {
    const url = new URL(value, base);
    return `${url.origin}${url.pathname}`;
  } catch {
    return JSON.stringify(value.slice(0, 100));
  }
}
