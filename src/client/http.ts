/**
 * Streamable HTTP, client side, for both eras: every message is a POST whose
 * answer is JSON or an SSE stream; a broken stream that named event ids is
 * resumed with a GET carrying `Last-Event-ID` after the server's `retry`; a
 * legacy session opens the standalone GET stream. When a server refuses the
 * `initialize` POST (400, 404, 405), the 2024-11-05 HTTP+SSE transport is tried:
 * a GET stream whose `endpoint` event names where to POST.
 */
import type { AbortSignalLike } from '../protocol/connection.js';
import type { JsonRpcId, JsonRpcMessage } from '../jsonrpc/message.js';
import { isPlainObject } from '../jsonrpc/message.js';
import { linkedSignal, onAbort, outboundAbort, toAbortSignal } from './abort.js';
import { McpTransportError } from './errors.js';
import { fetchEngine, hasNodeHttp, nodeEngine, type HttpEngine, type HttpInit, type HttpReply } from './http-request.js';
import { wireEngine } from './http1.js';
import { SseParser } from './sse.js';
import type { ClientTransport, OutboundInfo, TransportPeer, TransportSink } from './transport.js';

export type TokenProvider = string | (() => string | undefined | Promise<string | undefined>);

/** A 401 or 403 the server answered, as the auth provider sees it. */
export interface UnauthorizedAnswer {
  url: URL;
  status: number;
  wwwAuthenticate: string | undefined;
  signal?: AbortSignal | undefined;
}

/** What `oauth(...)` and `clientCredentials(...)` return: credentials for each request, and what to do on 401/403. */
export interface HttpAuthProvider {
  /** The `Authorization` header value for a request to `url`, or undefined to send none. */
  authorization(url: URL): Promise<string | undefined>;
  /** Authorize after a 401/403; true: the request is sent once more, false: the 401/403 is the answer. Rejects with why it cannot. */
  unauthorized(answer: UnauthorizedAnswer): Promise<boolean>;
}

export interface StreamableHttpOptions {
  /** Sent on every request (after the protocol's own headers; routing headers win). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** A bearer token, or a function asked before every request (the OAuth client plugs in here). */
  token?: TokenProvider;
  /** An OAuth provider (`oauth(...)`, `clientCredentials(...)`): asked for each request's credentials, and on 401/403 (one retry). */
  auth?: HttpAuthProvider;
  /** Default on Node: a keep-alive HTTP/1.1 client of its own for `http:` (http1.ts) and `node:https` for `https:`; the global `fetch` elsewhere. */
  fetch?: (input: string | URL, init: RequestInit) => Promise<Response>;
  /** Largest JSON body or SSE event accepted (default 16 MiB). */
  maxMessageBytes?: number;
  /** Reconnection of a broken SSE stream: attempts (default 5) and the delay when the server named none (default 1000 ms). */
  reconnect?: { maxAttempts?: number; delayMs?: number };
  /** Try the 2024-11-05 HTTP+SSE transport when the server refuses the initialize POST (default true). */
  legacySseFallback?: boolean;
  /** Open the standalone GET stream of a legacy session (default true). */
  openGetStream?: boolean;
}

const DEFAULT_MAX = 16 * 1024 * 1024;

export class StreamableHttpTransport implements ClientTransport {
  readonly url: URL;
  #sink: TransportSink | undefined;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #closed = new AbortController();
  #legacyEndpoint: URL | undefined;
  #legacyStream: Promise<void> | undefined;
  readonly #options: StreamableHttpOptions;
  readonly #engine: HttpEngine;
  /** The node:http engine ends its own exchanges on close; fetch needs the closed signal on each. */
  readonly #native: boolean;
  readonly #max: number;

  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    this.url = new URL(url);
    this.#options = options;
    this.#native = options.fetch === undefined && hasNodeHttp;
    this.#engine = this.#native ? wireEngine(nodeEngine) : fetchEngine(options.fetch ?? ((input, init) => fetch(input, init)));
    this.#max = options.maxMessageBytes ?? DEFAULT_MAX;
  }

  peer(): TransportPeer {
    const { hostname, port, protocol } = this.url;
    // URL keeps an IPv6 host in brackets; server.address wants the bare address.
    const address = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    return { transport: 'tcp', address, port: port === '' ? (protocol === 'https:' ? 443 : 80) : Number(port), sessionId: this.#sessionId };
  }

  /** The legacy session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  async start(sink: TransportSink): Promise<void> {
    this.#sink = sink;
  }

  negotiated(protocolVersion: string): void {
    this.#protocolVersion = protocolVersion;
    if (this.#legacyEndpoint === undefined && this.#options.openGetStream !== false) void this.#getStream(undefined, undefined, 0);
  }

  send(message: JsonRpcMessage, info: OutboundInfo = {}): Promise<void> {
    return this.#send(message, info, false);
  }

  async #send(message: JsonRpcMessage, info: OutboundInfo, authorized: boolean): Promise<void> {
    if (this.#closed.signal.aborted) throw new McpTransportError('closed', 'The transport is closed');
    if (this.#legacyEndpoint !== undefined) return this.#sendLegacySse(message);
    const requestId = 'method' in message && 'id' in message ? message.id : undefined;
    const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const version = info.protocolVersion ?? this.#protocolVersion;
    // Fixed headers and token, no auth: nothing to wait for (a promise less per request).
    const headers = this.#fixed ? this.#headersNow(version, base) : await this.#headers(version, base);
    Object.assign(headers, info.headers);
    if (this.#native) return this.#post(message, info, authorized, requestId, headers, outboundAbort(info) ?? this.#closed.signal, undefined);
    // fetch: a signal per request, linked to close and the request's own, so the long-lived close signal keeps one listener.
    const link = { ...linkedSignal(this.#closed.signal, outboundAbort(info)), byStream: false };
    try {
      return await this.#post(message, info, authorized, requestId, headers, link.signal, link);
    } finally {
      if (!link.byStream) link.release();
    }
  }

  /** `link` (fetch only): an SSE answer keeps it until the stream, and its resumption, is done. */
  async #post(message: JsonRpcMessage, info: OutboundInfo, authorized: boolean, requestId: JsonRpcId | undefined, headers: Record<string, string>, signal: AbortSignalLike, link: { release(): void; byStream: boolean } | undefined): Promise<void> {
    const response = await this.#request(this.url, { method: 'POST', headers, body: JSON.stringify(message), signal: this.#wire(signal) });
    const session = response.header('mcp-session-id');
    if (session !== undefined) this.#sessionId = session;
    const type = response.header('content-type') ?? '';
    if (ok(response)) {
      if (response.status === 202 || response.status === 204) {
        await response.discard();
        return;
      }
      if (type.includes('text/event-stream')) {
        if (link === undefined) void this.#readStream(response, requestId, signal, 0);
        else {
          link.byStream = true;
          void this.#readStream(response, requestId, signal, 0).finally(() => link.release());
        }
        return;
      }
      const text = await this.#text(response);
      if (text.trim() === '') {
        if (requestId !== undefined) this.#unanswered(requestId, `${this.url.href} answered HTTP ${response.status} with an empty body`);
        return;
      }
      // A JSON answer to a request is its response: one that holds none fails the request at once (it would wait forever).
      if (!this.#deliverJson(text, response.status, requestId) && requestId !== undefined) this.#unanswered(requestId, `${this.url.href} answered HTTP ${response.status} with JSON that holds no response to request ${JSON.stringify(requestId)}`);
      return;
    }
    const text = await this.#text(response).catch(() => '');
    const wwwAuthenticate = response.header('www-authenticate');
    if (response.status === 401 || response.status === 403) {
      const auth = this.#options.auth;
      if (auth !== undefined && !authorized && (await this.#unauthorized(auth, response.status, wwwAuthenticate, signal))) return this.#send(message, info, true);
      throw new McpTransportError('unauthorized', `HTTP ${response.status} from ${this.url.href}${describeBody(text)}${wwwAuthenticate ? ` (WWW-Authenticate: ${wwwAuthenticate})` : ''}`, { status: response.status, ...(wwwAuthenticate === undefined ? {} : { wwwAuthenticate }) });
    }
    // A JSON-RPC answer for this request (e.g. 400 with -32022, 404 with -32601 on 2026-07-28): the request's own error.
    if (requestId !== undefined && type.includes('json') && this.#deliverAnswerFor(text, requestId)) return;
    if ('method' in message && message.method === 'initialize' && [400, 404, 405].includes(response.status) && this.#options.legacySseFallback !== false) {
      await this.#openLegacySse(headers);
      return this.#sendLegacySse(message);
    }
    if (response.status === 404 && headers['mcp-session-id'] !== undefined) {
      this.#sessionId = undefined;
      throw new McpTransportError('session_expired', `The server no longer knows session ${headers['mcp-session-id']} (HTTP 404)${describeBody(text)}`, { status: 404 });
    }
    throw new McpTransportError('http', `HTTP ${response.status} ${response.statusText} from ${this.url.href}${describeBody(text)}`, { status: response.status });
  }

  /** Asks the auth provider whether to retry after a 401/403; the signal it is given is unlinked when it answers. */
  async #unauthorized(auth: HttpAuthProvider, status: number, wwwAuthenticate: string | undefined, signal: AbortSignalLike): Promise<boolean> {
    const link = toAbortSignal(signal);
    try {
      return await auth.unauthorized({ url: this.url, status, wwwAuthenticate, signal: link.signal });
    } finally {
      link.release();
    }
  }

  async close(): Promise<void> {
    if (this.#closed.signal.aborted) return;
    this.#closed.abort();
    const session = this.#sessionId;
    this.#sessionId = undefined;
    if (session !== undefined && this.#legacyEndpoint === undefined) {
      // Best effort: the server expires the session anyway.
      const headers = await this.#headers(this.#protocolVersion, { 'mcp-session-id': session }).catch(() => ({}));
      await this.#engine
        .send(this.url, { method: 'DELETE', headers, signal: AbortSignal.timeout(2000) })
        .then((r) => r.discard())
        .catch(() => undefined);
    }
    this.#engine.close();
    this.#sink?.closed();
  }

  get #fixed(): boolean {
    const o = this.#options;
    return typeof o.headers !== 'function' && typeof o.token !== 'function' && o.auth === undefined;
  }

  #headersNow(protocolVersion: string | undefined, base: Record<string, string>): Record<string, string> {
    const o = this.#options;
    const headers: Record<string, string> = o.headers === undefined ? base : { ...(o.headers as Record<string, string>), ...base };
    if (protocolVersion !== undefined) headers['mcp-protocol-version'] = protocolVersion;
    if (this.#sessionId !== undefined) headers['mcp-session-id'] = this.#sessionId;
    const token = o.token as string | undefined;
    if (token !== undefined && token !== '') headers['authorization'] = `Bearer ${token}`;
    return headers;
  }

  async #headers(protocolVersion: string | undefined, base: Record<string, string>): Promise<Record<string, string>> {
    const custom = typeof this.#options.headers === 'function' ? await this.#options.headers() : this.#options.headers;
    const headers: Record<string, string> = { ...custom, ...base };
    if (protocolVersion !== undefined) headers['mcp-protocol-version'] = protocolVersion;
    if (this.#sessionId !== undefined) headers['mcp-session-id'] = this.#sessionId;
    const token = typeof this.#options.token === 'function' ? await this.#options.token() : this.#options.token;
    if (token !== undefined && token !== '') headers['authorization'] = `Bearer ${token}`;
    const credentials = await this.#options.auth?.authorization(this.url);
    if (credentials !== undefined) headers['authorization'] = credentials;
    return headers;
  }

  /** What goes to the engine: node:http needs no closed signal (close ends its exchanges). */
  #wire(signal: AbortSignalLike): AbortSignalLike | undefined {
    return this.#native && signal === this.#closed.signal ? undefined : signal;
  }

  async #request(url: URL, init: HttpInit): Promise<HttpReply> {
    if (this.#closed.signal.aborted) throw new McpTransportError('closed', 'The transport is closed');
    try {
      return await this.#engine.send(url, init);
    } catch (error) {
      if (init.signal?.aborted === true || this.#closed.signal.aborted) throw new McpTransportError(this.#closed.signal.aborted ? 'closed' : 'aborted', 'The request was aborted', { cause: error });
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new McpTransportError('unreachable', `Cannot reach ${url.href}: ${cause}`, { cause: error });
    }
  }

  /** A body, at most `maxMessageBytes`; a connection lost while it is read is the transport's error, as when sending. */
  #text(response: HttpReply): Promise<string> {
    return response.text(this.#max).catch((error: unknown) => {
      if (error instanceof McpTransportError) throw error;
      throw new McpTransportError(this.#closed.signal.aborted ? 'closed' : 'unreachable', `${this.url.href}: ${(error as Error).message}`, { cause: error });
    });
  }

  /** Delivers every message of a JSON body; true when one of them is the response to `requestId`. */
  #deliverJson(text: string, status: number, requestId: JsonRpcId | undefined): boolean {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new McpTransportError('protocol', `${this.url.href} answered HTTP ${status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 200))}`, { status });
    }
    let answered = false;
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      if (isPlainObject(message) && message['id'] === requestId && !('method' in message) && ('result' in message || 'error' in message)) answered = true;
      this.#sink?.message(message);
    }
    return answered;
  }

  /** Fails the request `id` with a transport error naming what came instead of its answer. */
  #unanswered(id: JsonRpcId, why: string): void {
    this.#sink?.message({ jsonrpc: '2.0', id, error: { code: -32603, message: `Transport: ${why}` }, transportFailure: 'protocol' });
  }

  /** Delivers an error body that answers `id`; false when it does not. */
  #deliverAnswerFor(text: string, id: unknown): boolean {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return false;
    }
    if (!isPlainObject(parsed) || parsed['id'] !== id || !isPlainObject(parsed['error'])) return false;
    this.#sink?.message(parsed);
    return true;
  }

  /**
   * Reads one SSE response. When it ends before the answer to `requestId` and
   * the server named an event id, resumes with GET + Last-Event-ID.
   */
  async #readStream(response: HttpReply, requestId: unknown, signal: AbortSignalLike, attempt: number): Promise<void> {
    let lastId: string | undefined;
    let retryMs: number | undefined;
    let answered = false;
    const parser = new SseParser(
      {
        event: (event) => {
          if (event.event !== 'message' || event.data === '') return;
          let parsed: unknown;
          try {
            parsed = JSON.parse(event.data);
          } catch {
            this.#sink?.message({ invalid: event.data.slice(0, 200) });
            return;
          }
          for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
            if (requestId !== undefined && isPlainObject(message) && message['id'] === requestId && !('method' in message)) answered = true;
            this.#sink?.message(message);
          }
        },
        id: (id) => (lastId = id),
        retry: (ms) => (retryMs = ms),
      },
      this.#max,
    );
    let failure: Error | undefined;
    try {
      // Leaving the loop cancels the body: once the answer is in, the stream is done with.
      for await (const chunk of response.texts()) {
        parser.push(chunk);
        if (answered) break;
      }
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    if (answered || signal.aborted || this.#closed.signal.aborted || requestId === undefined) {
      if (requestId === undefined && !signal.aborted && !this.#closed.signal.aborted) {
        // The standalone GET stream ended: reconnect it (the server may close it at will).
        void this.#getStream(lastId, retryMs, attempt + 1);
      }
      return;
    }
    const maxAttempts = this.#options.reconnect?.maxAttempts ?? 5;
    if (lastId === undefined || attempt >= maxAttempts) {
      const why = failure instanceof RangeError ? failure.message : lastId === undefined ? 'the response stream ended before the answer, and named no event id to resume from' : `the response stream broke ${attempt + 1} times`;
      this.#sink?.message({ jsonrpc: '2.0', id: requestId, error: { code: -32603, message: `Transport: ${why}` }, transportFailure: true });
      return;
    }
    await this.#resume(requestId, lastId, retryMs, attempt + 1, signal);
  }

  async #resume(requestId: unknown, lastId: string, retryMs: number | undefined, attempt: number, signal: AbortSignalLike): Promise<void> {
    await delay(retryMs ?? this.#options.reconnect?.delayMs ?? 1000, signal);
    if (signal.aborted || this.#closed.signal.aborted) return;
    try {
      const headers = await this.#headers(this.#protocolVersion, { accept: 'text/event-stream', 'last-event-id': lastId });
      const response = await this.#request(this.url, { method: 'GET', headers, signal: this.#wire(signal) });
      if (!ok(response) || !(response.header('content-type') ?? '').includes('text/event-stream')) {
        await response.discard();
        throw new McpTransportError('http', `resuming the stream answered HTTP ${response.status}`, { status: response.status });
      }
      await this.#readStream(response, requestId, signal, attempt);
    } catch (error) {
      if (signal.aborted || this.#closed.signal.aborted) return;
      this.#sink?.message({ jsonrpc: '2.0', id: requestId, error: { code: -32603, message: `Transport: ${(error as Error).message}` }, transportFailure: true });
    }
  }

  /** The standalone GET stream of a legacy session: server requests and notifications outside any request. */
  async #getStream(lastId: string | undefined, retryMs: number | undefined, attempt: number): Promise<void> {
    const signal = this.#closed.signal;
    if (attempt > 0) await delay(retryMs ?? this.#options.reconnect?.delayMs ?? 1000, signal);
    if (signal.aborted || attempt > (this.#options.reconnect?.maxAttempts ?? 5) * 20) return;
    try {
      const base: Record<string, string> = { accept: 'text/event-stream' };
      if (lastId !== undefined) base['last-event-id'] = lastId;
      const response = await this.#request(this.url, { method: 'GET', headers: await this.#headers(this.#protocolVersion, base), signal: this.#wire(signal) });
      if (!ok(response) || !(response.header('content-type') ?? '').includes('text/event-stream')) {
        // 405: the server offers no standalone stream; anything else: not retried either.
        await response.discard();
        return;
      }
      await this.#readStream(response, undefined, signal, attempt);
    } catch {
      // Unreachable now: the next request will say so.
    }
  }

  async #openLegacySse(postHeaders: Record<string, string>): Promise<void> {
    const headers: Record<string, string> = { ...postHeaders, accept: 'text/event-stream' };
    delete headers['content-type'];
    delete headers['mcp-protocol-version'];
    const response = await this.#request(this.url, { method: 'GET', headers, signal: this.#wire(this.#closed.signal) });
    if (!ok(response) || !(response.header('content-type') ?? '').includes('text/event-stream')) {
      await response.discard();
      // 404 to both is most often a URL that is not the MCP endpoint: say what to check.
      const hint = response.status === 404 ? `: is ${this.url.pathname} the server's MCP endpoint? (mcpkit and most servers answer on /mcp)` : '';
      throw new McpTransportError('http', `${this.url.href} refused the initialize POST and offers no HTTP+SSE stream either (GET answered HTTP ${response.status})${hint}`, { status: response.status });
    }
    let resolveEndpoint!: (url: URL) => void;
    let rejectEndpoint!: (error: Error) => void;
    const endpoint = new Promise<URL>((resolve, reject) => ((resolveEndpoint = resolve), (rejectEndpoint = reject)));
    const parser = new SseParser(
      {
        event: (event) => {
          if (event.event === 'endpoint') {
            try {
              const url = new URL(event.data.trim(), this.url);
              if (url.origin !== this.url.origin) throw new Error(`the endpoint ${url.href} is on another origin`);
              resolveEndpoint(url);
            } catch (error) {
              rejectEndpoint(new McpTransportError('protocol', `Bad HTTP+SSE endpoint event: ${(error as Error).message}`));
            }
            return;
          }
          try {
            this.#sink?.message(JSON.parse(event.data));
          } catch {
            this.#sink?.message({ invalid: event.data.slice(0, 200) });
          }
        },
      },
      this.#max,
    );
    this.#legacyStream = (async () => {
      try {
        for await (const chunk of response.texts()) parser.push(chunk);
        rejectEndpoint(new McpTransportError('protocol', 'The HTTP+SSE stream ended before naming its endpoint'));
        if (!this.#closed.signal.aborted) this.#sink?.closed(new McpTransportError('unreachable', 'The HTTP+SSE stream ended'));
      } catch (error) {
        rejectEndpoint(new McpTransportError('unreachable', `The HTTP+SSE stream broke: ${(error as Error).message}`));
        if (!this.#closed.signal.aborted) this.#sink?.closed(new McpTransportError('unreachable', `The HTTP+SSE stream broke: ${(error as Error).message}`));
      }
    })();
    this.#legacyEndpoint = await endpoint;
  }

  async #sendLegacySse(message: JsonRpcMessage): Promise<void> {
    const headers = await this.#headers(undefined, { 'content-type': 'application/json' });
    delete headers['mcp-session-id'];
    const link = this.#native ? undefined : linkedSignal(this.#closed.signal);
    let response: HttpReply;
    let text: string;
    try {
      response = await this.#request(this.#legacyEndpoint!, { method: 'POST', headers, body: JSON.stringify(message), signal: this.#wire(link?.signal ?? this.#closed.signal) });
      text = await this.#text(response).catch(() => '');
    } finally {
      link?.release();
    }
    if (!ok(response)) throw new McpTransportError(response.status === 401 || response.status === 403 ? 'unauthorized' : 'http', `HTTP ${response.status} from ${this.#legacyEndpoint!.href}${describeBody(text)}`, { status: response.status });
  }

  /** @internal For tests: the HTTP+SSE stream in use (2024-11-05 fallback). */
  get usesLegacySse(): boolean {
    return this.#legacyStream !== undefined;
  }
}

const ok = (reply: HttpReply): boolean => reply.status >= 200 && reply.status < 300;

function describeBody(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (isPlainObject(parsed) && isPlainObject(parsed['error']) && typeof parsed['error']['message'] === 'string') return `: ${parsed['error']['message']}`;
  } catch {
    // not JSON: shown as text
  }
  return `: ${trimmed.slice(0, 300)}`;
}

function delay(ms: number, signal: AbortSignalLike): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, Math.min(ms, 60_000));
    const unlink = onAbort(signal, done);
    function done(): void {
      clearTimeout(timer);
      unlink();
      resolve();
    }
  });
}
