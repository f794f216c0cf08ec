/** The engine's minimal view of an HTTP exchange, which every adapter provides. */
/** Lower-cased header names; repeated headers joined with ", ". */
export type HeaderMap = Readonly<Record<string, string | undefined>>;

/** The outcome of reading a request body under a size limit. */
export type BodyResult =
  | { kind: 'text'; text: string }
  /** A framework (e.g. Express with `express.json()`) already parsed the body. */
  /** `bytes`: the body's size when the parser in front did not declare it (no Content-Length). */
  | { kind: 'parsed'; value: unknown; bytes?: number }
  /** Over the limit: `maxBodyBytes`, unless `limit`/`by` name another (a body parser in front). */
  | { kind: 'too-large'; limit?: number; by?: string }
  /** The client went away or the body could not be read. */
  | { kind: 'failed' };

export interface HttpRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path without the query string. */
  path: string;
  /** The raw query string without `?` ('' when absent). */
  query: string;
  headers: HeaderMap;
  /** Reads the whole body, stopping at `limit` bytes. Called at most once. */
  readBody(limit: number): Promise<BodyResult>;
  /** Aborts when the client disconnects before the response ends. */
  readonly signal: AbortSignal;
  /**
   * Optional cheaper alternative to `signal` for the hot path: registers one
   * callback for a client that disconnects before the response ends.
   */
  onDisconnect?(listener: () => void): void;
  /** The local port the request arrived on, when the adapter knows it (DNS-rebinding defaults). */
  localPort?: number;
  /**
   * The client's IP address, when the adapter knows it: unauthenticated callers are charged quotas by it.
   * Adapters give the socket's peer; with `trustProxy` the engine replaces it with the forwarded client's.
   */
  remoteAddress?: string;
  /** The client's port, when known (the socket's peer, or the forwarded client's when a `Forwarded` header names it). */
  remotePort?: number;
  /** Set by the engine when `trustProxy` replaced `remoteAddress`: the socket's peer (the nearest proxy). */
  peerAddress?: string;
  /** The HTTP version the request came over (`1.1`, `2`), when the adapter knows it. */
  httpVersion?: string;
}

/** Where a streamed response's chunks go; provided by the adapter. */
export interface ChunkSink {
  write(chunk: string): void;
  end(): void;
}

/** A response body produced over time (SSE). */
export interface ResponseStream {
  /** The adapter calls this once, after sending the status and headers. */
  start(sink: ChunkSink): void;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** A complete body; absent for empty responses and for streams. Bytes are UTF-8 JSON assembled from preset parts (jsonrpc/preset-json.ts). */
  body?: string | Uint8Array;
  /** A streamed body (text/event-stream). */
  stream?: ResponseStream;
  /**
   * A complete JSON body made in parts (a large answer, jsonrpc/json-parts.ts): the adapter writes
   * the next part once the one before it is written, with no Content-Length (chunked).
   */
  parts?: BodyParts;
}

/** A body made part by part: the next part (UTF-8 text to write), or undefined once complete; throws if it cannot be finished. */
export interface BodyParts {
  next(): string | undefined;
}
