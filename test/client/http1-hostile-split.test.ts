/**
 * The HTTP/1.1 client (src/client/http1.ts) with fast-check: valid answers split at arbitrary bytes
 * are read right, broken ones give their precise error (never a crash, a hang or a wrong answer);
 * then a client over the transport, and a gateway fronting an upstream, whose server breaks its
 * framing: the broken calls fail with a McpTransportError or McpError, the others go on.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, McpError, McpTransportError, StreamableHttpTransport } from '../../src/client.js';
import { nodeEngine, type HttpReply } from '../../src/client/http-request.js';
import { wireEngine } from '../../src/client/http1.js';
import { listen } from '../../src/adapters/node.js';
import { createGateway } from '../../src/gateway.js';
import { get, noUnhandledRejections, ok, outcome, Raw } from './support/raw-http.js';

noUnhandledRejections();

describe('arbitrary splits of an answer', () => {
  const answers = new Map<string, string[]>();
  let raw: Raw;
  const engine = wireEngine(nodeEngine);
  beforeAll(async () => {
    raw = await new Raw((request) => {
      const pieces = answers.get(request.path) ?? [ok('none')];
      void (async () => {
        for (const piece of pieces) {
          if (request.socket.destroyed) return;
          request.socket.write(piece, 'latin1');
          await new Promise((resolve) => setImmediate(resolve));
        }
        // Every exchange ends with the server's close: an answer that is not complete by then never hangs.
        request.socket.end();
      })();
    }).start();
  });
  afterAll(async () => {
    engine.close();
    await raw.close();
  });

  const split = (text: string, cuts: number[]): string[] => {
    const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
    const pieces: string[] = [];
    let from = 0;
    for (const cut of at) {
      pieces.push(text.slice(from, cut));
      from = cut;
    }
    pieces.push(text.slice(from));
    return pieces.filter((piece) => piece !== '');
  };
  let n = 0;

  const body = fc.string({ unit: 'binary', maxLength: 300 }).map((text) => Buffer.from(text).toString('latin1'));
  /** A valid answer and the body it carries. */
  const valid = fc.oneof(
    body.map((b) => ({ bytes: `HTTP/1.1 200 OK\r\ncontent-length: ${b.length}\r\nx-a: 1\r\n\r\n${b}`, body: b })),
    fc.tuple(body, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }), fc.boolean()).map(([b, sizes, trailer]) => {
      let chunks = '';
      let at = 0;
      for (const size of sizes) {
        if (at >= b.length) break;
        const piece = b.slice(at, at + size);
        chunks += `${piece.length.toString(16)}\r\n${piece}\r\n`;
        at += piece.length;
      }
      if (at < b.length) chunks += `${(b.length - at).toString(16)};x=y\r\n${b.slice(at)}\r\n`;
      return { bytes: `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${chunks}0\r\n${trailer ? 'x-t: 1\r\n' : ''}\r\n`, body: Buffer.from(b, 'latin1').toString('latin1') };
    }),
    body.map((b) => ({ bytes: `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nconnection: close\r\n\r\n${b}`, body: b })),
  );
  const cuts = fc.array(fc.nat(), { maxLength: 12 });
  const latin1Text = (reply: HttpReply): Promise<string> => reply.text(1 << 20).then((text) => Buffer.from(text, 'utf8').toString('latin1'));

  it('a valid answer, split anywhere, is read right; the next request on the pool gets its own', async () => {
    await fc.assert(
      fc.asyncProperty(valid, cuts, async ({ bytes, body: expected }, at) => {
        const path = `/v${n++}`;
        answers.set(path, split(bytes, at));
        const reply = await get(engine, raw.url(path));
        const text = await latin1Text(reply);
        // The body as UTF-8 text, back to its bytes: equal where the bytes were valid UTF-8.
        expect(text).toBe(Buffer.from(Buffer.from(expected, 'latin1').toString('utf8'), 'utf8').toString('latin1'));
        expect(await outcome(engine, raw.url(`/after${n}`))).toBe('200 none');
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  /** A corruption of a valid answer and the error it must give. */
  const corrupt = fc.oneof(
    fc.constant({ bytes: 'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nshort', error: /closed before the answer was complete/ }),
    fc.constant({ bytes: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n', error: /closed before the answer was complete/ }),
    fc.constant({ bytes: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello!!\r\n0\r\n\r\n', error: /does not end where its size said/ }),
    fc.constant({ bytes: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nq\r\nhello\r\n0\r\n\r\n', error: /invalid chunk size/ }),
    fc.constant({ bytes: 'HTTP/1.1 200 OK\r\ncontent-length: 1\r\ntransfer-encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n', error: /both a content-length and a transfer-encoding/ }),
    fc.constant({ bytes: 'HTTP/1.1 200 OK\r\nx-a: 1\r\n x-b: 2\r\n\r\n', error: /malformed header line/ }),
    fc.constant({ bytes: 'HTTP/1.1 200 OK\r\nx-a: 1\rx-b: 2\r\n\r\n', error: /invalid character in its headers/ }),
    fc.constant({ bytes: 'HTTP/1.1 2x0 OK\r\n\r\n', error: /did not answer in HTTP\/1\.1/ }),
    fc.constant({ bytes: 'HTTP/1.1 200 OK\r\ncontent-length: 5', error: /socket hang up/ }),
    fc.constant({ bytes: 'HTTP/1.1 101 Switching Protocols\r\n\r\n', error: /switched protocols/ }),
  );

  it('a broken answer, split anywhere, gives its precise error, never a crash, a hang or an answer', async () => {
    await fc.assert(
      fc.asyncProperty(corrupt, cuts, async ({ bytes, error }, at) => {
        const path = `/c${n++}`;
        answers.set(path, split(bytes, at));
        const result = await outcome(engine, raw.url(path));
        expect(result).toMatch(/^(head|body): /);
        expect(result).toMatch(error);
        expect(await outcome(engine, raw.url(`/after${n}`))).toBe('200 none');
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});

describe('a client over the transport, against a server that breaks its framing', () => {
  it('fails the broken call with a McpTransportError and goes on serving', async () => {
    let broken: ((id: unknown) => string) | undefined;
    const raw = await new Raw((request) => {
      if (request.method !== 'POST') return void request.socket.write('HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n');
      const message = JSON.parse(request.body) as { id?: unknown; method: string };
      if (message.id === undefined) return void request.socket.write('HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n');
      const result = message.method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } : { tools: [] };
      if (broken !== undefined && message.method === 'tools/list') return void request.socket.end(broken(message.id));
      request.socket.write(ok(JSON.stringify({ jsonrpc: '2.0', id: message.id, result })));
    }).start();
    const client = new Client({ protocolVersion: '2025-11-25', requestTimeoutMs: 5000, onWarning: () => undefined });
    await client.connect(new StreamableHttpTransport(raw.url('/mcp'), { openGetStream: false, maxMessageBytes: 4096, reconnect: { maxAttempts: 0 } }));
    const frame = (id: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [] } });
    const breakings: ((id: unknown) => string)[] = [
      (id) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n${frame(id)}`,
      (id) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${frame(id).length.toString(16)}\r\n${frame(id)}\r\nzz\r\n`,
      (id) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${frame(id).length.toString(16)}\r\n${frame(id)}`,
      () => 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n',
      () => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n${'x'.repeat(5000)}`,
      () => 'HTTP/1.1 200 OK\r\nmcp-session-id: a\nb\r\ncontent-length: 0\r\n\r\n',
      () => 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n1000\r\ndata: {',
      () => `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\ndata: ${'x'.repeat(5000)}`,
      () => 'HTTP/1.1 101 Switching Protocols\r\n\r\n',
      () => 'nonsense',
    ];
    for (const breaking of breakings) {
      broken = breaking;
      const error = await client.listTools({ cache: false }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error instanceof McpTransportError || error instanceof McpError, `${breaking(1).slice(0, 60)}: ${String(error)}`).toBe(true);
      broken = undefined;
      await expect(client.listTools({ cache: false })).resolves.toMatchObject({ tools: [] });
    }
    await client.close();
    await raw.close();
  });
});

describe('a gateway fronting an upstream that breaks its framing', () => {
  it('fails the broken calls, and goes on serving the others, concurrent ones too', async () => {
    const frame = (id: unknown, result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, result });
    const breakings: Record<string, (id: unknown) => string> = {
      short: (id) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 900\r\n\r\n${frame(id, { content: [] })}`,
      chunk: (id) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n${frame(id, {}).slice(0, 5)}\r\nzz\r\n`,
      both: (id) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n${frame(id, {})}`,
      header: () => 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-a: a\rb\r\n\r\n',
      pipelined: (id) => `${ok(frame(id, { content: [{ type: 'text', text: 'mine' }] }))}${ok(frame(id, { content: [{ type: 'text', text: 'EVIL' }] }))}`,
      reset: () => '<reset>',
      sse: () => 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\ndata: {"jsonrpc":',
    };
    const raw = await new Raw((request) => {
      const { socket } = request;
      if (request.method === 'GET') return void socket.write('HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n');
      if (request.method === 'DELETE') return void socket.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
      const message = JSON.parse(request.body) as { id?: unknown; method: string; params?: { arguments?: { text?: string } } };
      if (message.id === undefined) return void socket.write('HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n');
      if (message.method === 'initialize') return void socket.write(ok(frame(message.id, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } })));
      if (message.method === 'tools/list') return void socket.write(ok(frame(message.id, { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] })));
      if (message.method !== 'tools/call') return void socket.write(ok(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } })));
      const text = message.params?.arguments?.text ?? '';
      const breaking = breakings[text];
      if (breaking === undefined) return void setTimeout(() => socket.write(ok(frame(message.id, { content: [{ type: 'text', text }] }))), text.length % 4);
      const bytes = breaking(message.id);
      if (bytes === '<reset>') socket.resetAndDestroy();
      else if (text === 'pipelined') socket.write(bytes);
      else socket.end(bytes);
    }).start();
    const gateway = createGateway({ mcpServers: { raw: { url: raw.url('/mcp').href } } }, { proxy: { onStderr: () => undefined } });
    expect(await gateway.ready()).toEqual([]);
    const listener = await listen(gateway.server, { port: 0 });
    const client = new Client({ protocolVersion: '2025-11-25', requestTimeoutMs: 10_000, onWarning: () => undefined });
    await client.connect(new StreamableHttpTransport(listener.url, { openGetStream: false }));
    const call = (text: string): Promise<string> =>
      client.callTool('raw_echo', { text }).then(
        (result) => `${result.isError === true ? 'isError ' : ''}${((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text).join('')}`,
        (error: unknown) => `error ${error instanceof McpError || error instanceof McpTransportError ? 'precise' : String(error)}`,
      );
    for (let round = 0; round < 3; round++) {
      // The broken calls among the good ones, at other places each round.
      const texts = Array.from({ length: 30 }, (_, i) => `good-${round}-${i}`);
      Object.keys(breakings).forEach((name, i) => texts.splice((i * 5 + round * 3) % texts.length, 0, name));
      const answers = await Promise.all(texts.map(call));
      texts.forEach((text, i) => {
        if (text === 'pipelined') expect(answers[i]).toBe('mine');
        else if (text in breakings) expect(answers[i]).toMatch(/^error precise$|^isError /);
        else expect(answers[i]).toBe(text);
      });
    }
    expect(await call('after')).toBe('after');
    await client.close();
    await listener.close();
    await gateway.close();
    await raw.close();
  }, 30_000);
});
