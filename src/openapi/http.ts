/**
 * The HTTP exchange of a derived tool: only to the configured base URL's origin (a document's
 * `servers`, a redirect or a path argument cannot send the request elsewhere), redirects followed
 * by hand and limited, the body read up to a byte limit, the request aborted when the MCP call is
 * cancelled or times out.
 */
import { readBounded } from './load.js';
import { unrefTimer } from '../util/timers.js';

export type RequestBody = NonNullable<RequestInit['body']>;

export interface Exchange {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  readonly url: string;
  readonly headers: Headers;
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

/**
 * The signal a request runs under. A server that registered the tool with `timeoutMs` enforces
 * the timeout through the call's own signal, which is then used as it is: `AbortSignal.timeout`
 * and `AbortSignal.any` cost more per call than the rest of building the request.
 */
function signalFor(settings: SendSettings, signal: AbortSignal | undefined, timedBySignal: boolean): { signal: AbortSignal; timedOut: () => boolean; done: () => void } {
  if (signal !== undefined && timedBySignal) return { signal, timedOut: () => false, done: () => {} };
  const controller = new AbortController();
  let expired = false;
  const timer = unrefTimer(
    setTimeout(() => {
      expired = true;
      controller.abort(new DOMException('timed out', 'TimeoutError'));
    }, settings.timeoutMs),
  );
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted === true) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** `url` is built from the base URL's origin (so same-origin by construction); redirects are parsed and checked. */
export async function send(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: RequestBody },
  settings: SendSettings,
  signal?: AbortSignal,
  timedBySignal = false,
): Promise<Exchange> {
  const run = signalFor(settings, signal, timedBySignal);
  try {
    return await exchange(url, init, settings, run.signal, run.timedOut, signal);
  } finally {
    run.done();
  }
}

async function exchange(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: RequestBody },
  settings: SendSettings,
  combined: AbortSignal,
  timedOut: () => boolean,
  signal: AbortSignal | undefined,
): Promise<Exchange> {
  if (!url.startsWith(`${settings.origin}/`)) throw new UpstreamRefusal(`refused: ${url.slice(0, 200)} is not under the configured API origin ${settings.origin}`);
  let current = url;
  let { method, body } = init;
  const headers = init.headers;
  const stopped = (): UpstreamRefusal | undefined =>
    timedOut() ? new UpstreamRefusal(`the API did not answer within ${settings.timeoutMs} ms`) : signal?.aborted === true || combined.aborted ? new UpstreamRefusal('cancelled') : undefined;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await settings.fetch(current, { method, headers, ...(body !== undefined && { body }), redirect: 'manual', signal: combined });
    } catch (error) {
      const refusal = stopped();
      if (refusal !== undefined) throw refusal;
      throw new UpstreamRefusal(`the API is unreachable: ${(error as Error).message}${(error as { cause?: Error }).cause?.message === undefined ? '' : ` (${(error as { cause: Error }).cause.message})`}`);
    }
    const location = response.headers.get('location');
    if ([301, 302, 303, 307, 308].includes(response.status) && location !== null) {
      await response.body?.cancel();
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new UpstreamRefusal(`refused: the API redirected to an invalid URL (${location.slice(0, 200)})`);
      }
      if (next.origin !== settings.origin) throw new UpstreamRefusal(`refused: the API redirected to another origin (${next.origin}); only ${settings.origin} is allowed`);
      if (hop >= settings.maxRedirects) throw new UpstreamRefusal(`refused: more than ${settings.maxRedirects} redirects`);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      current = next.href;
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await readBounded(response, settings.maxResponseBytes, () => new UpstreamRefusal(`the API's response is larger than maxResponseBytes (${settings.maxResponseBytes} bytes)`));
    } catch (error) {
      if (error instanceof UpstreamRefusal) throw error;
      const refusal = stopped();
      if (refusal !== undefined) throw refusal;
      throw new UpstreamRefusal(`reading the API's response failed: ${(error as Error).message}`);
    }
    return { status: response.status, statusText: response.statusText, contentType: response.headers.get('content-type') ?? '', bytes, url: current, headers: response.headers };
  }
}
