/**
 * A raw TCP server for the HTTP/1.1 client's hostile tests: it parses requests (content-length
 * bodies) and lets each test write whatever bytes it likes, malformed or malicious.
 */
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import type { HttpEngine, HttpReply } from '../../../src/client/http-request.js';

export interface Request {
  method: string;
  path: string;
  head: string;
  body: string;
  /** 0 for the first request on its connection. */
  nth: number;
  /** The connection's number, from 1. */
  connection: number;
  socket: Socket;
}

/** A raw TCP server: parses requests (content-length bodies) and lets `answer` write whatever bytes it likes. */
export class Raw {
  connections = 0;
  readonly requests: Request[] = [];
  readonly open = new Set<Socket>();
  readonly #server: net.Server;
  #base = '';
  #closes: (() => void)[] = [];

  constructor(answer: (request: Request) => void, onConnection?: (socket: Socket, connection: number) => void) {
    this.#server = net.createServer((socket) => {
      const connection = ++this.connections;
      this.open.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.open.delete(socket);
        for (const wake of this.#closes.splice(0)) wake();
      });
      onConnection?.(socket, connection);
      let buffered = '';
      let nth = 0;
      socket.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('latin1');
        for (;;) {
          const end = buffered.indexOf('\r\n\r\n');
          if (end === -1) return;
          const head = buffered.slice(0, end);
          const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
          if (buffered.length < end + 4 + length) return;
          const body = buffered.slice(end + 4, end + 4 + length);
          buffered = buffered.slice(end + 4 + length);
          const [method = '', path = ''] = head.split(' ');
          const request = { method, path, head, body, nth: nth++, connection, socket };
          this.requests.push(request);
          answer(request);
        }
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  url(path = '/'): URL {
    return new URL(path, this.#base);
  }

  /** Resolves once at most `count` connections are open. */
  async openAtMost(count: number): Promise<void> {
    while (this.open.size > count) await new Promise<void>((resolve) => this.#closes.push(resolve));
  }

  close(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** Fails the file when anything escaped as an unhandled rejection. */
export function noUnhandledRejections(): void {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  beforeAll(() => void process.on('unhandledRejection', onUnhandled));
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
}

export const ok = (body: string, extra = ''): string => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
export const get = (engine: HttpEngine, url: URL, signal?: AbortSignal): Promise<HttpReply> => engine.send(url, { method: 'GET', headers: {}, signal });
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Waits `ms`, then two turns of the event loop: what a server (in this process) wrote before has been
 * read by the client by then, even when the wait's timer and the server's fired in one timers phase.
 */
export async function settle(ms: number): Promise<void> {
  await sleep(ms);
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}
/** The body of a GET, or the message of why it failed (the head or the body). */
export const outcome = (engine: HttpEngine, url: URL, max = 1 << 20): Promise<string> =>
  get(engine, url).then(
    (reply) => reply.text(max).then((text) => `${reply.status} ${text}`, (error: Error) => `body: ${error.message}`),
    (error: Error) => `head: ${error.message}`,
  );

/** Answers `/bad/<name>` with the bytes of `hostile[name]` (then closes), anything else with `ok:<path>`. */
export function hostileServer(hostile: Record<string, string | Buffer>): Raw {
  return new Raw((request) => {
    const name = request.path.startsWith('/bad/') ? request.path.slice(5) : undefined;
    if (name === undefined) return void request.socket.write(ok(`ok:${request.path}`), 'latin1');
    const bytes = hostile[name]!;
    request.socket.end(bytes, 'latin1');
  });
}

