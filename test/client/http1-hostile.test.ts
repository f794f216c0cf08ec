/**
 * The HTTP/1.1 client (src/client/http1.ts) against a server that answers malformed or malicious
 * HTTP on raw sockets (test/client/support/raw-http.ts): heads, framing and chunked bodies that
 * node:http (llhttp) refuses are refused, each request's failure its own, and one request's bytes
 * never become another request's answer. The streams that never end, resets, aborts, the pool and
 * the request side are in http1-hostile-streams.test.ts; arbitrary splits, a client and a gateway
 * over a hostile server in http1-hostile-split.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/client/http-request.js';
import { wireEngine } from '../../src/client/http1.js';
import { get, hostileServer, noUnhandledRejections, ok, outcome, Raw, settle, type Request } from './support/raw-http.js';

noUnhandledRejections();

describe('answers node:http refuses are refused, and the engine goes on serving', () => {
  /** The bytes, the error, and whether node:http accepts them (it reads an unknown coding until the close, and hands a 101 to its caller). */
  const cases: Record<string, [string, RegExp, 'node accepts'?]> = {
    'no status line': ['garbage\r\n\r\n', /did not answer in HTTP\/1\.1/],
    'HTTP/2': ['HTTP/2 200 OK\r\ncontent-length: 2\r\n\r\nok', /did not answer in HTTP\/1\.1/],
    'a two-digit status': ['HTTP/1.1 20 OK\r\ncontent-length: 2\r\n\r\nok', /did not answer in HTTP\/1\.1/],
    'a four-digit status': ['HTTP/1.1 2000 OK\r\ncontent-length: 2\r\n\r\nok', /did not answer in HTTP\/1\.1/],
    'no space after the status': ['HTTP/1.1 200OK\r\ncontent-length: 2\r\n\r\nok', /did not answer in HTTP\/1\.1/],
    'binary instead of a status line': ['\x00\x01\xff\xfe\r\n\r\n', /did not answer in HTTP\/1\.1/],
    'a bare CR in a header value': ['HTTP/1.1 200 OK\r\nmcp-session-id: a\rb\r\ncontent-length: 2\r\n\r\nok', /invalid character in its headers/],
    'a bare LF in a header value': ['HTTP/1.1 200 OK\r\nmcp-session-id: a\ncontent-length: 9\r\ncontent-length: 2\r\n\r\nok', /invalid character in its headers/],
    'a NUL in a header value': ['HTTP/1.1 200 OK\r\nmcp-session-id: a\x00b\r\ncontent-length: 2\r\n\r\nok', /invalid character in its headers/],
    'a DEL in a header value': ['HTTP/1.1 200 OK\r\nmcp-session-id: a\x7fb\r\ncontent-length: 2\r\n\r\nok', /invalid character in its headers/],
    'a space before the colon': ['HTTP/1.1 200 OK\r\ncontent-length : 2\r\n\r\nok', /malformed header line/],
    'a folded line that names a content-length': ['HTTP/1.1 200 OK\r\nx-a: a\r\n content-length: 2\r\n\r\nok', /malformed header line/],
    'a header name that is not a token': ['HTTP/1.1 200 OK\r\nx(a): a\r\ncontent-length: 2\r\n\r\nok', /malformed header line/],
    'an empty header name': ['HTTP/1.1 200 OK\r\n: a\r\ncontent-length: 2\r\n\r\nok', /malformed header line/],
    'a header line without a colon': ['HTTP/1.1 200 OK\r\nbroken\r\n\r\n', /malformed header line/],
    'two different content-lengths': ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\nok!', /invalid content-length/],
    'a content-length list': ['HTTP/1.1 200 OK\r\ncontent-length: 2, 3\r\n\r\nok!', /invalid content-length/],
    'a negative content-length': ['HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\nok', /invalid content-length/],
    'a hex content-length': ['HTTP/1.1 200 OK\r\ncontent-length: 0x2\r\n\r\nok', /invalid content-length/],
    'a fractional content-length': ['HTTP/1.1 200 OK\r\ncontent-length: 2.0\r\n\r\nok', /invalid content-length/],
    'an empty content-length': ['HTTP/1.1 200 OK\r\ncontent-length:\r\n\r\nok', /invalid content-length/],
    'an overflowing content-length': ['HTTP/1.1 200 OK\r\ncontent-length: 99999999999999999999\r\n\r\nok', /invalid content-length/],
    'content-length with transfer-encoding': ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n', /both a content-length and a transfer-encoding/],
    'a transfer-encoding it does not read': ['HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\nok', /transfer-encoding this client does not read/, 'node accepts'],
    'chunked that is not the last coding': ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked, gzip\r\n\r\nok', /transfer-encoding this client does not read/, 'node accepts'],
    'a 101 it never asked for': ['HTTP/1.1 101 Switching Protocols\r\nupgrade: evil\r\nconnection: upgrade\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nEVIL', /switched protocols/, 'node accepts'],
    'a close before any byte': ['', /socket hang up/],
    'a close inside the head': ['HTTP/1.1 200 OK\r\ncontent-le', /socket hang up/],
  };
  let server: Raw;
  const engine = wireEngine(nodeEngine);
  const node = nodeEngine();
  beforeAll(async () => (server = await hostileServer(Object.fromEntries(Object.entries(cases).map(([name, [bytes]]) => [encodeURIComponent(name), bytes]))).start()));
  afterAll(async () => {
    engine.close();
    node.close();
    await server.close();
  });

  it.each(Object.entries(cases))('%s: the request fails, precisely', async (name, [, error, lenient]) => {
    const bad = server.url(`/bad/${encodeURIComponent(name)}`);
    await expect(get(engine, bad)).rejects.toThrow(error);
    // The same answer through node:http: refused too.
    if (lenient === undefined) await expect(outcome(node, bad)).resolves.toMatch(/^head: /);
    await expect(outcome(engine, server.url('/next'))).resolves.toBe('200 ok:/next');
  });

  it('refuses the session id a server would inject into the next request', async () => {
    // What a value with a bare LF became before: echoed back on the next request, where it fails every call.
    await expect(get(engine, server.url(`/bad/${encodeURIComponent('a bare LF in a header value')}`))).rejects.toThrow(/invalid character/);
  });

  it('reads a header named like an Object.prototype member as the server sent it, and nothing else', async () => {
    const raw = await new Raw((request) => request.socket.write('HTTP/1.1 200 OK\r\nconstructor: c\r\n__proto__: p\r\ncontent-length: 0\r\n\r\n')).start();
    const reply = await get(engine, raw.url());
    expect(reply.header('constructor')).toBe('c');
    expect(reply.header('__proto__')).toBe('p');
    expect(reply.header('toString')).toBeUndefined();
    expect(reply.header('hasOwnProperty')).toBeUndefined();
    await reply.discard();
    await raw.close();
  });
});

describe('chunked bodies', () => {
  const head = 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n';
  const cases: Record<string, [string, RegExp | string]> = {
    'hex garbage': [`${head}zz\r\nok\r\n0\r\n\r\n`, /invalid chunk size/],
    'a negative size': [`${head}-2\r\nok\r\n0\r\n\r\n`, /invalid chunk size/],
    'a 0x prefix': [`${head}0x2\r\nok\r\n0\r\n\r\n`, /invalid chunk size/],
    'an empty size': [`${head}\r\nok\r\n0\r\n\r\n`, /invalid chunk size/],
    'a size past 2^48': [`${head}1000000000000\r\nok\r\n0\r\n\r\n`, /invalid chunk size/],
    'an overflowing size': [`${head}ffffffffffffffffffffffff\r\nok\r\n0\r\n\r\n`, /invalid chunk size/],
    'a size line past 4096 bytes': [`${head}2;${'x'.repeat(5000)}`, /chunk-size line longer than 4096/],
    'a chunk longer than its size': [`${head}2\r\nokk\r\n0\r\n\r\n`, /does not end where its size said/],
    'no final chunk, then a close': [`${head}2\r\nok\r\n`, /closed before the answer was complete/],
    'a close inside a chunk': [`${head}10\r\nok`, /closed before the answer was complete/],
    'a close inside the trailer': [`${head}2\r\nok\r\n0\r\nx-t: 1\r\n`, /closed before the answer was complete/],
    'a huge size, then a close': [`${head}ffffffffffff\r\nok`, /closed before the answer was complete/],
    'extensions and a trailer': [`${head}2;a=b;c="d"\r\nok\r\n1 ; e\r\n!\r\n0;f\r\nx-trailer: 1\r\nx-other: 2\r\n\r\n`, 'ok!'],
  };
  let server: Raw;
  const engine = wireEngine(nodeEngine);
  beforeAll(async () => (server = await hostileServer(Object.fromEntries(Object.entries(cases).map(([name, [bytes]]) => [encodeURIComponent(name), bytes]))).start()));
  afterAll(async () => {
    engine.close();
    await server.close();
  });

  it.each(Object.entries(cases))('%s', async (name, [, expected]) => {
    const reply = await get(engine, server.url(`/bad/${encodeURIComponent(name)}`));
    if (typeof expected === 'string') expect(await reply.text(100)).toBe(expected);
    else await expect(reply.text(100)).rejects.toThrow(expected);
    await expect(outcome(engine, server.url('/next'))).resolves.toBe('200 ok:/next');
  });

  it('fails a body whose chunks outgrow the reader’s bound, and closes the socket', async () => {
    const raw = await new Raw((request) => {
      request.socket.write(`${head}ffffffffffff\r\n`);
      const block = 'x'.repeat(16 * 1024);
      const pump = (): void => {
        while (!request.socket.destroyed && request.socket.write(block));
        if (!request.socket.destroyed) request.socket.once('drain', pump);
      };
      pump();
    }).start();
    const reply = await get(engine, raw.url());
    await expect(reply.text(100_000)).rejects.toThrow(/longer than maxMessageBytes \(100000\)/);
    await raw.openAtMost(0);
    await raw.close();
  });

  it('a body of one-byte chunks is read whole', async () => {
    const body = 'x'.repeat(20_000);
    const raw = await new Raw((request) => request.socket.write(`${head}${'1\r\nx\r\n'.repeat(body.length)}0\r\n\r\n`)).start();
    expect(await (await get(engine, raw.url())).text(1 << 20)).toBe(body);
    await raw.close();
  });
});

describe('one request’s bytes never become another’s answer', () => {
  const engine = wireEngine(nodeEngine);
  afterAll(() => engine.close());

  /** A server whose first answer on each connection is `first`; every other request is answered with its own path. */
  async function twice(first: (request: Request) => void): Promise<{ raw: Raw; answers: string[] }> {
    const raw = await new Raw((request) => {
      if (request.nth === 0 && request.connection === 1) return first(request);
      request.socket.write(ok(`own:${request.path}`));
    }).start();
    const answers = [await outcome(engine, raw.url('/one'))];
    // Let whatever the server sends after its answer arrive on the idle socket before the next request.
    await settle(30);
    answers.push(await outcome(engine, raw.url('/two')), await outcome(engine, raw.url('/three')));
    return { raw, answers };
  }

  it.each([
    ['a body longer than its content-length', (r: Request) => r.socket.write(`${ok('one')}${ok('EVIL')}`)],
    ['a 204 with a body', (r: Request) => r.socket.write(`HTTP/1.1 204 No Content\r\ncontent-length: 4\r\n\r\n${ok('EVIL')}`)],
    ['a 304 with a body', (r: Request) => r.socket.write(`HTTP/1.1 304 Not Modified\r\n\r\n${ok('EVIL')}`)],
    ['bytes after the last chunk', (r: Request) => r.socket.write(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\none\r\n0\r\n\r\n${ok('EVIL')}`)],
    ['an answer sent later on the idle socket', (r: Request) => {
      r.socket.write(ok('one'));
      setTimeout(() => r.socket.write(ok('EVIL')), 5);
    }],
    ['half an answer sent later on the idle socket', (r: Request) => {
      r.socket.write(ok('one'));
      setTimeout(() => r.socket.write('HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nEV'), 5);
    }],
    ['an answer sent in pieces on the idle socket', (r: Request) => {
      r.socket.write(ok('one'));
      const evil = ok('EVIL');
      setTimeout(() => r.socket.write(evil.slice(0, 10)), 5);
      setTimeout(() => r.socket.write(evil.slice(10)), 10);
    }],
  ])('%s', async (_name, first) => {
    const { raw, answers } = await twice(first);
    expect(answers[0]).toMatch(/^(204 |304 |200 one)$/);
    expect(answers.slice(1)).toEqual(['200 own:/two', '200 own:/three']);
    await raw.close();
  });

  it('an unsolicited answer on an idle pooled socket closes it: the next request takes a new connection', async () => {
    let sent!: () => void;
    const evilSent = new Promise<void>((resolve) => (sent = resolve));
    const raw = await new Raw((request) => {
      request.socket.write(ok(`own:${request.path}`));
      if (request.connection === 1) setTimeout(() => request.socket.write(ok('EVIL'), () => sent()), 5);
    }).start();
    expect(await outcome(engine, raw.url('/one'))).toBe('200 own:/one');
    await evilSent;
    await settle(20);
    expect(await outcome(engine, raw.url('/two'))).toBe('200 own:/two');
    expect(raw.connections).toBe(2);
    await raw.close();
  });

  it('many requests in flight, one socket pre-answering the next request: every answer is its own', async () => {
    let evilSocket = 0;
    const raw = await new Raw((request) => {
      const id = request.path.slice(1);
      // One connection answers, then pipelines an answer of its choosing for whatever comes next.
      if (evilSocket === 0) evilSocket = request.connection;
      if (request.connection === evilSocket) return void request.socket.write(`${ok(id)}${ok('EVIL')}`);
      setTimeout(() => request.socket.write(ok(id)), Number(id) % 7);
    }).start();
    for (let round = 0; round < 3; round++) {
      const ids = Array.from({ length: 40 }, (_, i) => String(round * 100 + i));
      const answers = await Promise.all(ids.map((id) => outcome(engine, raw.url(`/${id}`))));
      expect(answers).toEqual(ids.map((id) => `200 ${id}`));
    }
    await raw.close();
  });

  it('many requests in flight on the pool, one socket resetting, the rest answered: failures stay with their request', async () => {
    const raw = await new Raw((request) => {
      const id = Number(request.path.slice(1));
      if (id % 5 === 0) return void request.socket.resetAndDestroy();
      if (id % 5 === 1) return void request.socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nhalf');
      if (id % 5 === 2) return void request.socket.end('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n');
      setTimeout(() => request.socket.write(ok(String(id))), id % 3);
    }).start();
    const ids = Array.from({ length: 60 }, (_, i) => i);
    const answers = await Promise.all(ids.map((id) => outcome(engine, raw.url(`/${id}`))));
    answers.forEach((answer, id) => {
      if (id % 5 === 0) expect(answer).toMatch(/^head: .*(ECONNRESET|socket hang up)|^body: the connection closed/);
      else if (id % 5 === 1) expect(answer).toMatch(/^body: the connection closed before the answer was complete/);
      else if (id % 5 === 2) expect(answer).toMatch(/^body: the server sent an invalid chunk size/);
      else expect(answer).toBe(`200 ${id}`);
    });
    await raw.close();
  });
});
