/**
 * The answer of one HTTP/1.1 exchange (http1.ts): its body arrives as the socket reads it, is
 * queued up to HIGH_WATER unread bytes (then the socket is paused), and is read once.
 */
import { BodyPieces, tooLong, type HttpReply } from './http-request.js';

/** Unread body bytes queued before the socket is paused. */
const HIGH_WATER = 64 * 1024;

/** The exchange behind a reply: its socket's flow, and leaving before the end. */
export interface ReplySource {
  pause(): void;
  resume(): void;
  /** The reader left before the end: the rest of the body is not read, so the socket goes. */
  abandon(): void;
}

/** An answer whose body arrives as the socket reads it; bounded by the reader, paused while unread. */
export class WireReply implements HttpReply {
  readonly status: number;
  readonly statusText: string;
  readonly #headers: Record<string, string>;
  readonly #exchange: ReplySource;
  #chunks: Buffer[] = [];
  #queued = 0;
  #ended = false;
  #error: Error | undefined;
  #wake: (() => void) | undefined;
  #dropped = false;

  constructor(status: number, statusText: string, headers: Record<string, string>, exchange: ReplySource) {
    this.status = status;
    this.statusText = statusText;
    this.#headers = headers;
    this.#exchange = exchange;
  }

  header(name: string): string | undefined {
    return this.#headers[name];
  }

  push(chunk: Buffer): void {
    if (this.#dropped) return;
    this.#chunks.push(chunk);
    this.#queued += chunk.length;
    if (this.#queued > HIGH_WATER) this.#exchange.pause();
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  fail(error: Error): void {
    if (this.#ended) return;
    this.#error = error;
    this.#wake?.();
  }

  async text(max: number): Promise<string> {
    const length = Number(this.#headers['content-length'] ?? NaN);
    if (length > max) {
      this.#exchange.abandon();
      throw tooLong(max, length);
    }
    let bytes = 0;
    const body = new BodyPieces();
    for (;;) {
      for (const chunk of this.#take()) {
        bytes += chunk.length;
        if (bytes > max) {
          this.#exchange.abandon();
          throw tooLong(max);
        }
        body.add(chunk);
      }
      if (this.#error !== undefined) throw this.#error;
      if (this.#ended) return body.text();
      await this.#next();
    }
  }

  async *texts(): AsyncIterable<string> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        // One string for what arrived since the last: not one per (perhaps one-byte) chunk.
        const chunks = this.#take();
        if (chunks.length > 0) yield decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), { stream: true });
        if (this.#error !== undefined) throw this.#error;
        if (this.#ended) return;
        await this.#next();
      }
    } finally {
      if (!this.#ended) this.#exchange.abandon();
    }
  }

  async discard(): Promise<void> {
    this.#dropped = true;
    this.#chunks = [];
    if (!this.#ended) this.#exchange.abandon();
  }

  #take(): Buffer[] {
    const chunks = this.#chunks;
    if (chunks.length === 0) return chunks;
    this.#chunks = [];
    if (this.#queued > HIGH_WATER) this.#exchange.resume();
    this.#queued = 0;
    return chunks;
  }

  #next(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve();
      };
    });
  }
}
