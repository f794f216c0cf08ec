/**
 * The HTTP/1.1 client (src/client/http1.ts) against raw servers that never finish, reset, answer
 * early or flood: what the server can make it hold is bounded, an abort or an early exit destroys
 * the socket instead of pooling it, the pool keeps at most 256 idle sockets and closes idle ones,
 * and a request that would inject a header or split its request line is refused before sending.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/client/http-request.js';
import { wireEngine } from '../../src/client/http1.js';
import { get, noUnhandledRejections, ok, outcome, Raw, settle, sleep } from './support/raw-http.js';

noUnhandledRejections();

describe('heads and bodies that never end', () => {
  const engine = wireEngine(nodeEngine);
  afterAll(() => engine.close());

  it('a head that never ends fails at 64 KiB and its socket is closed', async () => {
    const raw = await new Raw((request) => {
      request.socket.write('HTTP/1.1 200 OK\r\n');
      const pump = (): void => {
        while (!request.socket.destroyed && request.socket.write(`x-${'a'.repeat(500)}: b\r\n`));
        if (!request.socket.destroyed) request.socket.once('drain', pump);
      };
      pump();
    }).start();
    await expect(get(engine, raw.url())).rejects.toThrow(/more than 65536 bytes of headers/);
    await raw.openAtMost(0);
    await raw.close();
  });

  it('a head sent byte by byte past the bound fails the same way', async () => {
    const raw = await new Raw((request) => {
      const socket = request.socket;
      socket.setNoDelay(true);
      socket.write('HTTP/1.1 200 OK\r\nx-a: ');
      let sent = 0;
      const drip = (): void => {
        if (socket.destroyed || sent++ > 70_000) return;
        socket.write('y');
        setImmediate(drip);
      };
      drip();
    }).start();
    await expect(get(engine, raw.url())).rejects.toThrow(/more than 65536 bytes of headers/);
    await raw.close();
  }, 60_000);

  it('slowloris: a head dripping a byte at a time is ended by the caller’s signal, which closes the socket', async () => {
    let dripped = 0;
    const raw = await new Raw((request) => {
      const timer = setInterval(() => (request.socket.destroyed ? clearInterval(timer) : (request.socket.write('HTTP/1.1 200 OK\r\n'[dripped++ % 17]!), undefined)), 5);
    }).start();
    const controller = new AbortController();
    const pending = get(engine, raw.url(), controller.signal);
    while (dripped < 5) await sleep(5);
    controller.abort(new Error('enough of this'));
    await expect(pending).rejects.toThrow(/enough of this/);
    await raw.openAtMost(0);
    await raw.close();
  });

  it('slowloris: a body dripping a byte at a time is ended by the signal, its socket closed and not pooled', async () => {
    let dripped = 0;
    const raw = await new Raw((request) => {
      if (request.path === '/next') return void request.socket.write(ok('next'));
      request.socket.write('HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n');
      const timer = setInterval(() => (request.socket.destroyed ? clearInterval(timer) : (request.socket.write('x'), dripped++)), 5);
    }).start();
    const controller = new AbortController();
    const reply = await get(engine, raw.url('/slow'), controller.signal);
    const reading = reply.text(10_000);
    while (dripped < 5) await sleep(5);
    controller.abort(new Error('too slow'));
    await expect(reading).rejects.toThrow(/too slow/);
    await raw.openAtMost(0);
    expect(await outcome(engine, raw.url('/next'))).toBe('200 next');
    expect(raw.connections).toBe(2);
    await raw.close();
  });

  it('an SSE stream that never ends is left by its reader, which closes the socket', async () => {
    const raw = await new Raw((request) => {
      request.socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n');
      const timer = setInterval(() => (request.socket.destroyed ? clearInterval(timer) : request.socket.write('6\r\n: tick\r\n')), 2);
    }).start();
    const reply = await get(engine, raw.url());
    let seen = 0;
    for await (const chunk of reply.texts()) if ((seen += chunk.length) > 100) break;
    await raw.openAtMost(0);
    await raw.close();
  });

  it('a body the reader does not read pauses the socket instead of buffering it', async () => {
    let written = 0;
    let stalled!: () => void;
    const full = new Promise<void>((resolve) => (stalled = resolve));
    const raw = await new Raw((request) => {
      request.socket.write('HTTP/1.1 200 OK\r\n\r\n');
      const block = Buffer.alloc(64 * 1024, 'x');
      const pump = (): void => {
        while (written < 64 << 20) {
          written += block.length;
          if (request.socket.write(block)) continue;
          // No drain for a while: the client stopped reading (kernel buffers full).
          const waiting = setTimeout(stalled, 500);
          return void request.socket.once('drain', () => {
            clearTimeout(waiting);
            pump();
          });
        }
        stalled();
      };
      pump();
    }).start();
    const reply = await get(engine, raw.url());
    await full;
    // Kernel buffers (both sides) hold a few MiB at most: had the client read on, the server would have written all 64 MiB.
    expect(written).toBeLessThan(32 << 20);
    await reply.discard();
    await raw.openAtMost(0);
    await raw.close();
  });
});

describe('resets, early answers, and aborts', () => {
  const engine = wireEngine(nodeEngine);
  afterAll(() => engine.close());

  it('a reset inside the head fails the request; inside the body, the body', async () => {
    const raw = await new Raw((request) => {
      if (request.path === '/head') {
        request.socket.write('HTTP/1.1 200 OK\r\ncontent-');
        setTimeout(() => request.socket.resetAndDestroy(), 5);
      } else {
        request.socket.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhal');
        setTimeout(() => request.socket.resetAndDestroy(), 5);
      }
    }).start();
    await expect(get(engine, raw.url('/head'))).rejects.toThrow(/ECONNRESET|socket hang up/);
    const reply = await get(engine, raw.url('/body'));
    await expect(reply.text(100)).rejects.toThrow(/closed before the answer was complete/);
    await raw.close();
  });

  it('a server that answers before reading a large request body, then closes: an answer or a precise error', async () => {
    const raw = await new Raw(
      () => undefined,
      (socket) =>
        socket.once('data', () => {
          socket.end('HTTP/1.1 413 Content Too Large\r\ncontent-length: 3\r\nconnection: close\r\n\r\nbig');
        }),
    ).start();
    const body = 'x'.repeat(8 << 20);
    const result = await engine.send(raw.url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
      async (reply) => `${reply.status} ${await reply.text(100)}`,
      (error: Error) => `error ${error.message}`,
    );
    expect(result).toMatch(/^413 big$|^error .*(EPIPE|ECONNRESET|socket hang up)/);
    await raw.close();
  });

  it('an answer written the moment the connection opens is the answer to the request sent on it, and is not reused', async () => {
    const raw = await new Raw(
      (request) => request.socket.write(ok(`own:${request.path}`)),
      (socket, connection) => {
        if (connection === 1) socket.write(ok('early'));
      },
    ).start();
    // The early bytes answer the first request (HTTP/1.1 cannot tell them apart), never a later one.
    expect(await outcome(engine, raw.url('/one'))).toBe('200 early');
    // The server's own answer to /one follows on the socket, now idle: it is closed for it.
    while (raw.requests.length < 1) await sleep(2);
    await settle(20);
    expect(await outcome(engine, raw.url('/two'))).toBe('200 own:/two');
    expect(raw.connections).toBe(2);
    expect(await outcome(engine, raw.url('/three'))).toBe('200 own:/three');
    await raw.close();
  });

  it('an abort before the answer destroys the socket: the next request takes a new connection', async () => {
    const raw = await new Raw((request) => {
      if (request.path !== '/never') request.socket.write(ok('fine'));
    }).start();
    expect(await outcome(engine, raw.url('/warm'))).toBe('200 fine');
    const controller = new AbortController();
    const pending = get(engine, raw.url('/never'), controller.signal);
    while (raw.requests.length < 2) await sleep(2);
    controller.abort();
    await expect(pending).rejects.toThrow(/aborted|This operation was aborted/);
    await raw.openAtMost(0);
    expect(await outcome(engine, raw.url('/after'))).toBe('200 fine');
    expect(raw.connections).toBe(2);
    await raw.close();
  });

  it('a signal aborted before the request sends nothing', async () => {
    const raw = await new Raw((request) => request.socket.write(ok('fine'))).start();
    await expect(get(engine, raw.url(), AbortSignal.abort(new Error('before')))).rejects.toThrow(/before/);
    expect(raw.requests).toEqual([]);
    await raw.close();
  });

  it('a reader that gives up on an over-long body (content-length) destroys the socket', async () => {
    const raw = await new Raw((request) => request.socket.write(`HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n${'x'.repeat(1000)}`)).start();
    await expect((await get(engine, raw.url())).text(10)).rejects.toThrow(/1000 bytes, more than maxMessageBytes \(10\)/);
    await raw.openAtMost(0);
    await raw.close();
  });

  it('a 100-continue, 102 and 103 before the answer are skipped; a flood of them is bounded by the caller', async () => {
    const raw = await new Raw((request) => {
      if (request.path === '/flood') {
        const timer = setInterval(() => (request.socket.destroyed ? clearInterval(timer) : request.socket.write('HTTP/1.1 100 Continue\r\n\r\n'.repeat(50))), 1);
        return;
      }
      request.socket.write(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n${ok('final')}`);
    }).start();
    expect(await outcome(engine, raw.url('/hints'))).toBe('200 final');
    const controller = new AbortController();
    const flood = get(engine, raw.url('/flood'), controller.signal);
    await sleep(50);
    controller.abort(new Error('flooded'));
    await expect(flood).rejects.toThrow(/flooded/);
    await raw.openAtMost(0);
    await raw.close();
  });

  it('a body cut inside a UTF-8 character: the text has a replacement character, the stream an error', async () => {
    const euro = Buffer.from('€');
    const raw = await new Raw((request) => {
      if (request.path === '/json') request.socket.write(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\n"'), euro.subarray(0, 2)]));
      else request.socket.end(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\ndata: '), euro.subarray(0, 1)]));
    }).start();
    expect(await (await get(engine, raw.url('/json'))).text(100)).toBe('"\ufffd');
    const stream = await get(engine, raw.url('/sse'));
    let text = '';
    for await (const chunk of stream.texts()) text += chunk;
    expect(text.startsWith('data: ')).toBe(true);
    await raw.close();
  });
});

describe('the pool', () => {
  it('keeps at most 256 idle sockets per host, and closes idle ones', async () => {
    const engine = wireEngine(nodeEngine);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const raw = await new Raw((request) => void gate.then(() => request.socket.write(ok('x')))).start();
    const all = Array.from({ length: 300 }, () => outcome(engine, raw.url()));
    while (raw.requests.length < 300) await sleep(5);
    release();
    expect(new Set(await Promise.all(all))).toEqual(new Set(['200 x']));
    await raw.openAtMost(256);
    // Idle sockets are closed after a while (4 s): the server sees them go without anything sent.
    await raw.openAtMost(0);
    expect(raw.requests.length).toBe(300);
    engine.close();
    await raw.close();
  }, 20_000);

  it('close ends every exchange in flight and every pooled socket', async () => {
    const engine = wireEngine(nodeEngine);
    const raw = await new Raw((request) => {
      if (request.path === '/fast') request.socket.write(ok('x'));
    }).start();
    await outcome(engine, raw.url('/fast'));
    const hanging = [get(engine, raw.url('/hang')), get(engine, raw.url('/hang'))];
    while (raw.requests.length < 3) await sleep(2);
    engine.close();
    for (const request of hanging) await expect(request).rejects.toThrow(/the transport closed/);
    await raw.openAtMost(0);
    await raw.close();
  });
});

describe('requests', () => {
  const engine = wireEngine(nodeEngine);
  let raw: Raw;
  beforeAll(async () => (raw = await new Raw((request) => request.socket.write(ok('x'))).start()));
  afterAll(async () => {
    engine.close();
    await raw.close();
  });

  it.each([
    ['CRLF in a value', { 'x-a': 'a\r\nx-injected: 1' }, /Invalid character in header content/],
    ['LF in a value', { 'x-a': 'a\nx-injected: 1' }, /Invalid character in header content/],
    ['CR in a value', { 'x-a': 'a\rb' }, /Invalid character in header content/],
    ['NUL in a value', { 'x-a': 'a\0b' }, /Invalid character in header content/],
    ['a character past latin1', { 'x-a': '€' }, /Invalid character in header content/],
    ['CRLF in a name', { 'x-a\r\nx-injected': '1' }, /valid HTTP token/],
    ['a colon in a name', { 'x-a:b': '1' }, /valid HTTP token/],
    ['an empty name', { '': '1' }, /valid HTTP token/],
  ])('refuses %s before sending anything', async (_name, headers, error) => {
    const before = raw.requests.length;
    await expect(engine.send(raw.url(), { method: 'POST', headers, body: '{}' })).rejects.toThrow(error);
    expect(raw.requests.length).toBe(before);
  });

  it('sends one host header, its own, and drops the framing headers a caller gives', async () => {
    await outcome(engine, raw.url('/h'));
    const reply = await engine.send(raw.url('/h'), { method: 'POST', headers: { Host: 'evil.example', 'content-length': '999', 'transfer-encoding': 'chunked', connection: 'close', 'x-fine': 'y' }, body: 'abc' });
    expect(await reply.text(10)).toBe('x');
    const head = raw.requests.at(-1)!.head;
    expect(head.match(/^host: /gim)).toEqual(['host: ']);
    expect(head).toContain(`\r\nhost: ${raw.url().host}\r\n`);
    expect(head).not.toMatch(/evil|transfer-encoding|connection|content-length: 999/i);
    expect(head).toMatch(/\r\ncontent-length: 3$/);
    expect(raw.requests.at(-1)!.body).toBe('abc');
  });

  it('a path with CR, LF, spaces or non-ASCII cannot split the request line', async () => {
    const url = raw.url('/');
    url.pathname = '/a b\r\nx-injected: 1\r\n\r\nGET /evil HTTP/1.1';
    url.search = '?q=\r\n€ x';
    await outcome(engine, url);
    const request = raw.requests.at(-1)!;
    // The URL percent-encodes (or drops) them: one request line, then the host, nothing injected.
    const lines = request.head.split('\r\n');
    expect(lines[0]).toMatch(/^GET \/[!-~]+ HTTP\/1\.1$/);
    expect(lines.slice(1)).toEqual([`host: ${raw.url().host}`]);
    expect(raw.requests.filter((r) => r.path === '/evil')).toEqual([]);
  });
});
