/**
 * A small HTTP/1.1 client for plain `http:` URLs on Node: each request is one socket write, sockets
 * are kept alive and pooled per host, and an answer is framed by its content-length or chunked
 * encoding. Profiled behind the gateway (every proxied call is one upstream POST), node:http's
 * ClientRequest/IncomingMessage/Agent machinery was the largest share of the gateway's CPU per
 * call; this does only what the Streamable HTTP transport needs. `https:` goes to `fallback`
 * (node:https: TLS and its options are its business).
 */
import type * as NodeNet from 'node:net';
import type { Socket } from 'node:net';
import type { AbortSignalLike } from '../protocol/connection.js';
import { nodeBuiltin } from '../util/builtin.js';
import { McpTransportError } from './errors.js';
import type { HttpEngine, HttpInit, HttpReply } from './http-request.js';
import { LiveList, type Linked } from '../util/live-list.js';
import { WireReply } from './http1-reply.js';

/** Longest status line and headers accepted. */
const MAX_HEAD = 64 * 1024;
/** A pooled socket unused this long is closed (under Node's server keepAliveTimeout of 5 s, so we close first). */
const IDLE_MS = 4000;
/** Idle sockets kept per host. */
const MAX_IDLE = 256;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A control character (a bare CR or LF among them, in a head line with its CRLF split off): refused both ways, as llhttp does. */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
/** Anything but printable ASCII and the line breaks of the head itself. */
const NON_ASCII = /[^\t\n\r -~]/;
const CRLF2 = Buffer.from('\r\n\r\n');

/** The node:http engine's behaviour, over sockets of our own; `fallback` takes every URL that is not `http:`. */
export function wireEngine(fallback: () => HttpEngine): HttpEngine {
  const net = nodeBuiltin<typeof NodeNet>('node:net');
  if (net === undefined) throw new Error('node:net is not available in this runtime');
  let other: HttpEngine | undefined;
  const idle = new Map<string, Socket[]>();
  // Not a Set: see LiveList (a Set churned at 32 exchanges in flight promoted 1.7 KB per request).
  const live = new LiveList<Exchange>();
  let isClosed = false;

  const take = (key: string, host: string, port: number): { socket: Socket; reused: boolean } => {
    const pool = idle.get(key);
    while (pool !== undefined && pool.length > 0) {
      const socket = pool.pop()!;
      if (socket.destroyed) continue;
      socket.off('data', unsolicited);
      socket.setTimeout(0);
      socket.ref();
      return { socket, reused: true };
    }
    const socket = net.connect({ host, port });
    socket.setNoDelay(true);
    // Listeners for the socket's whole life: an error between exchanges (a reset while pooled) is
    // no one's to hear, an idle timeout ends it, and a closed socket leaves the pool.
    socket.on('error', () => undefined);
    socket.on('timeout', () => socket.destroy());
    socket.once('close', () => {
      const at = idle.get(key)?.indexOf(socket) ?? -1;
      if (at !== -1) idle.get(key)!.splice(at, 1);
    });
    return { socket, reused: false };
  };

  const release = (key: string, socket: Socket): void => {
    let pool = idle.get(key);
    if (isClosed || socket.destroyed || (pool !== undefined && pool.length >= MAX_IDLE)) return void socket.destroy();
    if (pool === undefined) idle.set(key, (pool = []));
    pool.push(socket);
    socket.on('data', unsolicited);
    // A Node object that is not a timer: an idle kept-alive socket must not keep the process alive.
    socket.unref();
    socket.setTimeout(IDLE_MS);
  };

  const attempt = (url: URL, init: HttpInit, retried: boolean): Promise<HttpReply> =>
    new Promise<HttpReply>((resolve, reject) => {
      if (isClosed && init.method !== 'DELETE') return reject(new Error('the transport closed'));
      let head: string;
      try {
        head = requestHead(url, init);
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the header that cannot be sent
        return reject(error);
      }
      const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      const port = url.port === '' ? 80 : Number(url.port);
      const key = `${host}:${port}`;
      const { socket, reused } = take(key, host, port);
      const exchange = new Exchange(socket, {
        answered: resolve,
        failed: (error, bytesSeen) => {
          // A kept-alive socket the server closed just as we reused it: the request never reached it.
          if (reused && !retried && !bytesSeen && init.signal?.aborted !== true && !isClosed) return resolve(attempt(url, init, true));
          reject(error);
        },
        done: (reusable) => {
          live.delete(exchange);
          if (reusable) release(key, socket);
          else socket.destroy();
        },
      });
      live.add(exchange);
      const signal = init.signal;
      if (signal !== undefined) {
        if (signal.aborted) return exchange.abort(reason(signal));
        exchange.follow(signal);
      }
      // Headers are latin1 on the wire, the body UTF-8: one string when the head is ASCII (nearly always).
      if (!NON_ASCII.test(head)) socket.write(init.body === undefined ? head : head + init.body);
      else {
        socket.cork();
        socket.write(head, 'latin1');
        if (init.body !== undefined) socket.write(init.body, 'utf8');
        socket.uncork();
      }
    });

  return {
    send: (url, init) => (url.protocol === 'http:' ? attempt(url, init, false) : (other ??= fallback()).send(url, init)),
    close: () => {
      isClosed = true;
      for (const exchange of live.clear()) exchange.abort(new Error('the transport closed'));
      for (const pool of idle.values()) for (const socket of pool.splice(0)) socket.destroy();
      other?.close();
    },
  };
}

/**
 * Bytes on an idle socket answer nothing asked. Dropped, the socket would carry the next request, and
 * the rest of what the server sent after them would be read as that request's answer: it goes instead.
 */
function unsolicited(this: Socket): void {
  this.destroy();
}

const reason = (signal: AbortSignalLike): Error => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));

/** Request line and headers (and the body's length), refusing what would break the framing. */
function requestHead(url: URL, init: HttpInit): string {
  let head = `${init.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const name in init.headers) {
    const value = init.headers[name]!;
    if (!TOKEN.test(name)) throw new TypeError(`Header name must be a valid HTTP token: ${JSON.stringify(name)}`);
    if (BAD_VALUE.test(value)) throw new TypeError(`Invalid character in header content ${JSON.stringify(name)}`);
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') continue;
    head += `${name}: ${value}\r\n`;
  }
  if (init.body !== undefined) head += `content-length: ${Buffer.byteLength(init.body, 'utf8')}\r\n`;
  return `${head}\r\n`;
}

interface ExchangeHooks {
  answered(reply: HttpReply): void;
  /** The exchange failed before an answer's head; `bytesSeen`: the server had sent something. */
  failed(error: Error, bytesSeen: boolean): void;
  /** The exchange is over; `reusable`: the socket may carry the next one. */
  done(reusable: boolean): void;
}

type Framing = { kind: 'length'; left: number } | { kind: 'chunked'; left: number; state: 'size' | 'data' | 'crlf' | 'trailer' } | { kind: 'close' };

/** One request and its answer on one socket: parses the head, frames the body, hands it to the reply. */
class Exchange implements Linked<Exchange> {
  // The transport's list of live exchanges writes these (live-list.ts).
  liveLinked = false;
  livePrev: Exchange | undefined = undefined;
  liveNext: Exchange | undefined = undefined;
  /** What aborts the exchange (a request abandoned), and the listener on it, removed when the exchange ends. */
  #signal: AbortSignalLike | undefined;
  #onAbort: (() => void) | undefined;
  #socket: Socket;
  #hooks: ExchangeHooks;
  /** A chunk-size line still incomplete. */
  #pending: Buffer | undefined;
  /** A head still incomplete, in a buffer that grows by doubling: sent byte by byte, it costs its length, not its square. */
  #kept: Buffer | undefined;
  #keptBytes = 0;
  #reply: WireReply | undefined;
  #framing: Framing | undefined;
  #keepAlive = true;
  #bytesSeen = false;
  #over = false;
  readonly #onData = (chunk: Buffer): void => this.#data(chunk);
  readonly #onEndOfStream = (): void => this.#closed(undefined);
  readonly #onError = (error: Error): void => this.#closed(error);

  constructor(socket: Socket, hooks: ExchangeHooks) {
    this.#socket = socket;
    this.#hooks = hooks;
    socket.on('data', this.#onData);
    socket.on('end', this.#onEndOfStream);
    socket.on('close', this.#onEndOfStream);
    socket.on('error', this.#onError);
  }

  /**
   * Aborted with `signal`. Its listener is a field the exchange removes itself: a closure assigned to
   * the exchange from outside (`exchange.onEnd = () => …`) kept about 200 B per request alive through
   * young collections into the old generation (docs/performance.md).
   */
  follow(signal: AbortSignalLike): void {
    this.#signal = signal;
    signal.addEventListener('abort', (this.#onAbort = () => this.abort(reason(signal))), { once: true });
  }

  abort(error: Error): void {
    if (this.#over) return;
    if (this.#reply === undefined) this.#hooks.failed(error, true);
    else this.#reply.fail(error);
    this.#finish(false);
  }

  /** The reader left before the end: the rest of the body is not read, so the socket goes. */
  abandon(): void {
    if (!this.#over) this.#finish(false);
  }

  pause(): void {
    this.#socket.pause();
  }

  resume(): void {
    if (!this.#over) this.#socket.resume();
  }

  #finish(reusable: boolean): void {
    this.#over = true;
    const socket = this.#socket;
    socket.off('data', this.#onData).off('end', this.#onEndOfStream).off('close', this.#onEndOfStream).off('error', this.#onError);
    if (reusable) socket.resume();
    if (this.#onAbort !== undefined) this.#signal!.removeEventListener('abort', this.#onAbort);
    this.#hooks.done(reusable);
  }

  #closed(error: Error | undefined): void {
    if (this.#over) return;
    if (this.#reply === undefined) {
      this.#hooks.failed(error ?? new Error('socket hang up'), this.#bytesSeen);
      return this.#finish(false);
    }
    if (this.#framing?.kind === 'close' && error === undefined) {
      this.#reply.end();
      return this.#finish(false);
    }
    // The transport hands a body's error to the caller as it is: a McpTransportError, as the head's are made by the transport.
    this.#reply.fail(new McpTransportError('unreachable', 'the connection closed before the answer was complete', error === undefined ? {} : { cause: error }));
    this.#finish(false);
  }

  #data(chunk: Buffer): void {
    if (this.#over) return;
    this.#bytesSeen = true;
    if (this.#reply === undefined) {
      // The head's end is looked for in the new bytes (and the 3 before them) only.
      const from = Math.max(0, this.#keptBytes - 3);
      const rest = this.#head(this.#keptBytes === 0 ? chunk : this.#keep(chunk), from);
      if (this.#over || rest === undefined) return;
      if (rest.length > 0) this.#body(rest);
      else if (this.#framing?.kind === 'length' && this.#framing.left === 0) this.#complete(0);
      return;
    }
    this.#body(chunk);
  }

  /** Appends `bytes` to the incomplete head; returns all of it. */
  #keep(bytes: Buffer): Buffer {
    const need = this.#keptBytes + bytes.length;
    if (this.#kept === undefined || need > this.#kept.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, 2 * (this.#kept?.length ?? 0), 1024));
      this.#kept?.copy(grown, 0, 0, this.#keptBytes);
      this.#kept = grown;
    }
    bytes.copy(this.#kept, this.#keptBytes);
    this.#keptBytes = need;
    return this.#kept.subarray(0, need);
  }

  /** Parses a head out of `buffer` (its end not before `from`); returns what follows it, or undefined while it is incomplete. */
  #head(buffer: Buffer, from: number): Buffer | undefined {
    for (;;) {
      const end = buffer.indexOf(CRLF2, from);
      if (end === -1 ? buffer.length > MAX_HEAD : end > MAX_HEAD) return void this.#protocolError(`the server's answer has more than ${MAX_HEAD} bytes of headers`);
      if (end === -1) {
        // Already all that is kept, or a new start (the first bytes, or what followed a 1xx).
        if (this.#keptBytes !== buffer.length || this.#kept?.buffer !== buffer.buffer || this.#kept.byteOffset !== buffer.byteOffset) {
          this.#keptBytes = 0;
          this.#keep(buffer);
        }
        return undefined;
      }
      this.#kept = undefined;
      this.#keptBytes = 0;
      from = 0;
      const lines = buffer.toString('latin1', 0, end).split('\r\n');
      const status = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(lines[0]!);
      if (status === null) return void this.#protocolError(`the server did not answer in HTTP/1.1 (${JSON.stringify(lines[0]!.slice(0, 80))})`);
      const code = Number(status[2]);
      buffer = buffer.subarray(end + 4);
      // We never ask to upgrade: what follows a 101 is not HTTP, and must not be read as the answer.
      if (code === 101) return void this.#protocolError('the server switched protocols (101), which this client never asks for');
      // 1xx (100 Continue, 103 Early Hints): the real answer follows.
      if (code >= 100 && code < 200) continue;
      // No prototype: a header named `constructor` or `__proto__` is a header like any other.
      const headers = Object.create(null) as Record<string, string>;
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i]!;
        const colon = line.indexOf(':');
        // A name that is not a token (a space before the colon, a folded line that starts with one) is
        // refused, as llhttp does: read leniently, ` content-length: 0` would frame what node:http does not.
        const name = colon <= 0 ? '' : line.slice(0, colon);
        if (!TOKEN.test(name)) return void this.#protocolError(`the server sent a malformed header line (${JSON.stringify(line.slice(0, 80))})`);
        // A bare CR or LF, a NUL: refused here rather than kept (a session id is sent back on every request).
        if (BAD_VALUE.test(line)) return void this.#protocolError(`the server sent an invalid character in its headers (${JSON.stringify(line.slice(0, 80))})`);
        const key = name.toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
      }
      const connection = (headers['connection'] ?? '').toLowerCase();
      this.#keepAlive = status[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
      const coding = headers['transfer-encoding'];
      const length = headers['content-length'];
      if (code === 204 || code === 304) this.#framing = { kind: 'length', left: 0 };
      // Both: a smuggling attempt or a broken intermediary (RFC 9112 §6.1); llhttp refuses it too.
      else if (coding !== undefined && length !== undefined) return void this.#protocolError('the server sent both a content-length and a transfer-encoding');
      else if (coding !== undefined) {
        if (!/(?:^|,)\s*chunked\s*$/i.test(coding)) return void this.#protocolError(`the server used a transfer-encoding this client does not read (${JSON.stringify(coding)})`);
        this.#framing = { kind: 'chunked', left: 0, state: 'size' };
      } else if (length !== undefined) {
        const values = new Set(length.split(',').map((v) => v.trim()));
        const only = [...values][0]!;
        if (values.size !== 1 || !/^\d{1,15}$/.test(only)) return void this.#protocolError(`the server sent an invalid content-length (${JSON.stringify(length.slice(0, 80))})`);
        this.#framing = { kind: 'length', left: Number(only) };
      } else this.#framing = { kind: 'close' };
      this.#reply = new WireReply(code, status[3] ?? '', headers, this);
      this.#hooks.answered(this.#reply);
      return buffer;
    }
  }

  #protocolError(message: string): void {
    const error = new McpTransportError('protocol', message);
    if (this.#reply === undefined) this.#hooks.failed(error, true);
    else this.#reply.fail(error);
    this.#finish(false);
  }

  #body(chunk: Buffer): void {
    const framing = this.#framing!;
    const reply = this.#reply!;
    if (framing.kind === 'close') return reply.push(chunk);
    if (framing.kind === 'length') {
      if (chunk.length < framing.left) {
        framing.left -= chunk.length;
        return reply.push(chunk);
      }
      if (framing.left > 0) reply.push(chunk.length === framing.left ? chunk : chunk.subarray(0, framing.left));
      return this.#complete(chunk.length - framing.left);
    }
    this.#chunked(framing, chunk);
  }

  /** The body is complete; `extra` bytes followed it (a server that answers what was not asked: the socket goes). */
  #complete(extra: number): void {
    this.#reply!.end();
    this.#finish(this.#keepAlive && extra === 0);
  }

  #chunked(framing: Extract<Framing, { kind: 'chunked' }>, input: Buffer): void {
    let buffer = this.#pending === undefined ? input : Buffer.concat([this.#pending, input]);
    this.#pending = undefined;
    while (buffer.length > 0) {
      if (framing.state === 'data') {
        const n = Math.min(framing.left, buffer.length);
        this.#reply!.push(buffer.subarray(0, n));
        framing.left -= n;
        buffer = buffer.subarray(n);
        if (framing.left === 0) framing.state = 'crlf';
        continue;
      }
      const nl = buffer.indexOf(10);
      if (nl === -1) {
        if (buffer.length > 4096) return this.#protocolError('the server sent a chunk-size line longer than 4096 bytes');
        this.#pending = buffer;
        return;
      }
      const line = buffer.toString('latin1', 0, nl).replace(/\r$/, '');
      buffer = buffer.subarray(nl + 1);
      if (framing.state === 'crlf') {
        if (line !== '') return this.#protocolError('the server sent a chunk that does not end where its size said');
        framing.state = 'size';
      } else if (framing.state === 'size') {
        const size = /^([0-9a-fA-F]{1,12})(?:\s*;.*)?$/.exec(line);
        if (size === null) return this.#protocolError(`the server sent an invalid chunk size (${JSON.stringify(line.slice(0, 40))})`);
        framing.left = parseInt(size[1]!, 16);
        framing.state = framing.left === 0 ? 'trailer' : 'data';
      } else if (line === '') return this.#complete(buffer.length);
    }
  }
}
