/**
 * The HTTP exchange of a derived tool: only to the configured base URL's origin (a document's
 * `servers`, a redirect or a path argument cannot send the request elsewhere), redirects followed
 * by hand and limited, the body read up to a byte limit, the request aborted when the MCP call is
 * cancelled or times out.
 */
import { readBounded } from './load.js';

export type RequestBody = NonNullable<RequestInit['body']>;

export interface Exchange {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  readonly url: string;
}

export interface SendSettings {
  readonly fetch: typeof fetch;
  readonly origin: string;
  readonly maxRedirects: number;
  readonly maxResponseBytes: number;
  readonly timeoutMs: number;
}

/** Refused before or while sending: the message is for the caller (and the model). */
export class UpstreamRefusal extends Error {
  override readonly name = 'UpstreamRefusal';
}

export async function send(url: URL, init: { method: string; headers: Headers; body?: RequestBody }, settings: SendSettings, signal?: AbortSignal): Promise<Exchange> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  let current = url;
  let { method, body } = init;
  const headers = init.headers;
  for (let hop = 0; ; hop++) {
    if (current.origin !== settings.origin) throw new UpstreamRefusal(`refused: ${current.origin} is not the configured API origin ${settings.origin}`);
    let response: Response;
    try {
      response = await settings.fetch(current, { method, headers, ...(body !== undefined && { body }), redirect: 'manual', signal: combined });
    } catch (error) {
      if (timeout.aborted) throw new UpstreamRefusal(`the API did not answer within ${settings.timeoutMs} ms`);
      if (signal?.aborted === true) throw new UpstreamRefusal('cancelled');
      throw new UpstreamRefusal(`the API is unreachable: ${(error as Error).message}${(error as { cause?: Error }).cause?.message === undefined ? '' : ` (${(error as { cause: Error }).cause.message})`}`);
    }
    const location = response.headers.get('location');
    if ([301, 302, 303, 307, 308].includes(response.status) && location !== null) {
      await response.body?.cancel();
      const next = new URL(location, current);
      if (next.origin !== settings.origin) throw new UpstreamRefusal(`refused: the API redirected to another origin (${next.origin}); only ${settings.origin} is allowed`);
      if (hop >= settings.maxRedirects) throw new UpstreamRefusal(`refused: more than ${settings.maxRedirects} redirects`);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
      }
      current = next;
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await readBounded(response, settings.maxResponseBytes, () => new UpstreamRefusal(`the API's response is larger than maxResponseBytes (${settings.maxResponseBytes} bytes)`));
    } catch (error) {
      if (error instanceof UpstreamRefusal) throw error;
      if (timeout.aborted) throw new UpstreamRefusal(`the API did not answer within ${settings.timeoutMs} ms`);
      if (signal?.aborted === true) throw new UpstreamRefusal('cancelled');
      throw new UpstreamRefusal(`reading the API's response failed: ${(error as Error).message}`);
    }
    return { status: response.status, statusText: response.statusText, contentType: response.headers.get('content-type') ?? '', bytes, url: current.href };
  }
}
