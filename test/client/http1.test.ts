/**
 * The HTTP/1.1 client of the Streamable HTTP transport (src/client/http1.ts), against a raw TCP
 * server that answers exactly the bytes each test writes: framing (length, chunked, until close,
 * split anywhere), keep-alive reuse, 1xx, and hostile answers, each a precise error and never a
 * crash; headers that would break the framing are refused before anything is sent.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/client/http-request.js';
import { wireEngine } from '../../src/client/http1.js';

/** What the raw server answers, by request path: the bytes, written in the pieces given. */
const answers = new Map<string, string[]>();
/** Connections the raw server accepted, and the request heads it read. */
let connections = 0;
const heads: string[] = [];
let server: net.Server;
let base: string;

beforeAll(async () => {
  server = net.createServer((socket) => {
    connections++;
    let buffered = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = buffered.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        heads.push(head);
        const path = head.split(' ')[1]!;
        const pieces = answers.get(path) ?? ['HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n'];
        void (async () => {
          for (const piece of pieces) {
            if (piece === '<close>') return void socket.end();
            socket.write(piece, 'latin1');
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
        })();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const get = (path: string, pieces: string[]): URL => {
  answers.set(path, pieces);
  return new URL(path, base);
};

describe('the HTTP/1.1 client', () => {
  const engine = wireEngine(nodeEngine);
  afterAll(() => engine.close());

  it('reads a content-length body split at every byte, and reuses the connection for the next request', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"result":{}}';
    const whole = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    const url = get('/split', [...whole]);
    const before = connections;
    for (let i = 0; i < 3; i++) {
      const reply = await engine.send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":"é"}' });
      expect(reply.status).toBe(200);
      expect(reply.header('content-type')).toBe('application/json');
      expect(await reply.text(1000)).toBe(body);
    }
    expect(connections - before).toBe(1);
    // The body's length is its UTF-8 length.
    expect(heads.at(-1)).toMatch(/content-length: 10/);
  });

  it('reads a chunked body (with an extension and a trailer) split inside the chunk sizes', async () => {
    const url = get('/chunked', ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5;ext=1\r', '\nhello\r\n', '6\r\n world\r\n0', '\r\nx-trailer: 1\r\n\r\n']);
    const reply = await engine.send(url, { method: 'GET', headers: {} });
    expect(await reply.text(100)).toBe('hello world');
  });

  it('streams a chunked body as texts, a multi-byte character split between chunks intact', async () => {
    const euro = Buffer.from('€').toString('latin1');
    const url = get('/stream', ['HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n', `2\r\n${euro.slice(0, 2)}\r\n`, `1\r\n${euro.slice(2)}\r\n`, '0\r\n\r\n']);
    const reply = await engine.send(url, { method: 'GET', headers: {} });
    let text = '';
    for await (const chunk of reply.texts()) text += chunk;
    expect(text).toBe('€');
  });

  it('reads a body that ends when the server closes (no length, no chunking)', async () => {
    const url = get('/until-close', ['HTTP/1.1 200 OK\r\n\r\nall of ', 'it', '<close>']);
    const reply = await engine.send(url, { method: 'GET', headers: {} });
    expect(await reply.text(100)).toBe('all of it');
  });

  it('skips a 100 Continue before the answer', async () => {
    const url = get('/continue', ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n']);
    const reply = await engine.send(url, { method: 'POST', headers: {}, body: '{}' });
    expect(reply.status).toBe(202);
    await reply.discard();
  });

  it('refuses a body longer than the bound, by its content-length and while reading', async () => {
    const declared = await engine.send(get('/big', ['HTTP/1.1 200 OK\r\ncontent-length: 5000\r\n\r\n', 'x'.repeat(5000)]), { method: 'GET', headers: {} });
    await expect(declared.text(100)).rejects.toThrow(/5000 bytes, more than maxMessageBytes \(100\)/);
    const streamed = await engine.send(get('/big-chunked', ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n', `1388\r\n${'x'.repeat(5000)}\r\n0\r\n\r\n`]), { method: 'GET', headers: {} });
    await expect(streamed.text(100)).rejects.toThrow(/longer than maxMessageBytes \(100\)/);
  });

  it.each([
    ['not HTTP', ['SSH-2.0-OpenSSH\r\n\r\n'], /did not answer in HTTP\/1\.1/],
    ['a header line without a colon', ['HTTP/1.1 200 OK\r\nbroken\r\n\r\n'], /malformed header line/],
    ['an invalid content-length', ['HTTP/1.1 200 OK\r\ncontent-length: 5, 6\r\n\r\n'], /invalid content-length/],
    ['a transfer-encoding it does not read', ['HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\n'], /transfer-encoding this client does not read/],
    ['more than 64 KiB of headers', ['HTTP/1.1 200 OK\r\n', `x-big: ${'y'.repeat(70_000)}`], /more than 65536 bytes of headers/],
    ['a close before any answer', ['<close>'], /socket hang up/],
  ])('fails the request on %s', async (_name, pieces, error) => {
    await expect(engine.send(get(`/bad-${connections}`, pieces), { method: 'GET', headers: {} })).rejects.toThrow(error);
  });

  it.each([
    ['an invalid chunk size', ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'], /invalid chunk size/],
    ['a chunk longer than its size', ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n'], /does not end where its size said/],
    ['a close in the middle of the body', ['HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nhalf', '<close>'], /closed before the answer was complete/],
  ])('fails the body on %s', async (_name, pieces, error) => {
    const reply = await engine.send(get(`/bad-body-${connections}`, pieces), { method: 'GET', headers: {} });
    await expect(reply.text(1000)).rejects.toThrow(error);
  });

  it('refuses a header that would break the framing before sending anything', async () => {
    const sent = heads.length;
    await expect(engine.send(new URL('/x', base), { method: 'GET', headers: { 'x-evil': 'a\r\nx-injected: 1' } })).rejects.toThrow(/Invalid character in header content/);
    await expect(engine.send(new URL('/x', base), { method: 'GET', headers: { 'bad name': 'a' } })).rejects.toThrow(/valid HTTP token/);
    expect(heads.length).toBe(sent);
  });

  it('writes a header value in latin1, as node:http does, and the body beside it in UTF-8', async () => {
    const reply = await engine.send(get('/latin1', ['HTTP/1.1 204 No Content\r\n\r\n']), { method: 'POST', headers: { 'x-name': 'José' }, body: '€' });
    expect(reply.status).toBe(204);
    expect(heads.at(-1)).toMatch(/x-name: José\r\ncontent-length: 3$/);
  });

  it('does not reuse a connection the server said it closes', async () => {
    const url = get('/close', ['HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok']);
    await (await engine.send(url, { method: 'GET', headers: {} })).text(10); // may go on a pooled connection: it is not pooled again
    const before = connections;
    for (let i = 0; i < 3; i++) expect(await (await engine.send(url, { method: 'GET', headers: {} })).text(10)).toBe('ok');
    expect(connections - before).toBe(3);
  });

  it('sends again on a new connection when the kept-alive one was closed by the server meanwhile', async () => {
    const url = get('/drop-after', ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok', '<close>']);
    for (let i = 0; i < 5; i++) expect(await (await engine.send(url, { method: 'POST', headers: {}, body: '{}' })).text(10)).toBe('ok');
  });

  it('ends a stream whose signal aborts, and refuses requests once closed', async () => {
    const own = wireEngine(nodeEngine);
    const controller = new AbortController();
    const reply = await own.send(get('/hang', ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n', '3\r\nabc\r\n']), { method: 'GET', headers: {}, signal: controller.signal });
    const reading = (async () => {
      for await (const chunk of reply.texts()) if (chunk === 'abc') controller.abort(new Error('enough'));
    })();
    await expect(reading).rejects.toThrow(/enough/);
    own.close();
    await expect(own.send(new URL('/x', base), { method: 'GET', headers: {} })).rejects.toThrow(/closed/);
  });
});
