/**
 * StdioTransport: framing (chunks, multi-byte characters, CRLF, blank lines),
 * parse errors, the line-length limit, write backpressure, EOF draining and
 * concurrency — through a real McpServer, every written line schema-validated.
 */
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpServer } from '../../../src/server/server.js';
import { StdioTransport, type StdioTransportConfig, type WritableLike } from '../../../src/transports/stdio.js';
import { makeServer, type TestServer } from '../../support/servers.js';
import { checkOutgoing, expectNullIdError, LineCollector, settle } from '../../support/wire.js';

const servers: McpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

type Json = Record<string, unknown>;

function echo(id: number | string, text: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
}

function record(id: number, label: string, wait = false): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'record', arguments: { label, wait } } });
}

function echoed(id: number | string, text: string): Json {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
}

interface Wired {
  test: TestServer;
  input: PassThrough;
  transport: StdioTransport;
  /** Resolves when the transport closed on its own (EOF). */
  closed: Promise<void>;
}

async function wire(output: WritableLike, config: Omit<StdioTransportConfig, 'input' | 'output'> = {}, test = makeServer()): Promise<Wired> {
  const input = new PassThrough();
  const transport = new StdioTransport({ input, output, ...config });
  servers.push(test.server);
  await test.server.connect(transport);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const onclose = transport.onclose;
  transport.onclose = () => {
    onclose?.();
    resolveClosed();
  };
  return { test, input, transport, closed };
}

/** A server on a PassThrough pair whose output lines are collected and validated. */
async function wired(config: Omit<StdioTransportConfig, 'input' | 'output'> = {}): Promise<Wired & { lines: LineCollector }> {
  const output = new PassThrough();
  const lines = new LineCollector(output, () => '2025-11-25', () => 'tools/call');
  return { ...(await wire(output, config)), lines };
}

/** An output that records every write synchronously (for "written before closed" checks). */
function recordingOutput(): WritableLike & { text: string; messages(): unknown[] } {
  const sink = {
    text: '',
    write(chunk: string, callback?: (error?: Error | null) => void): boolean {
      sink.text += chunk;
      callback?.();
      return true;
    },
    once: () => sink,
    messages(): unknown[] {
      return sink.text
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => {
          const message: unknown = JSON.parse(l);
          checkOutgoing(message, '2025-11-25', () => 'tools/call');
          return message;
        });
    },
  };
  return sink;
}

describe('framing', () => {
  it('reassembles a message split into single bytes, multi-byte UTF-8 characters included', async () => {
    const { input, lines } = await wired();
    const text = 'héllo — 🎉 ünïcødé';
    const bytes = Buffer.from(`${echo(1, text)}\n`, 'utf8');
    for (const byte of bytes) input.write(Buffer.from([byte]));
    await lines.waitFor(1);
    expect(lines.messages).toStrictEqual([echoed(1, text)]);
  });

  it('reassembles a message split in the middle of a 4-byte character across two chunks', async () => {
    const { input, lines } = await wired();
    const bytes = Buffer.from(`${echo(1, 'a🎉b')}\n`, 'utf8');
    const cut = bytes.indexOf(0xf0) + 2;
    input.write(bytes.subarray(0, cut));
    input.write(bytes.subarray(cut));
    await lines.waitFor(1);
    expect(lines.messages).toStrictEqual([echoed(1, 'a🎉b')]);
  });

  it('handles several messages in one chunk', async () => {
    const { input, lines } = await wired();
    input.write(`${echo(1, 'one')}\n${echo(2, 'two')}\n${echo(3, 'three')}\n`);
    await lines.waitFor(3);
    const byId = new Map((lines.messages as Json[]).map((m) => [m['id'], m]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
    expect(byId.get(1)).toStrictEqual(echoed(1, 'one'));
    expect(byId.get(2)).toStrictEqual(echoed(2, 'two'));
    expect(byId.get(3)).toStrictEqual(echoed(3, 'three'));
  });

  it('accepts CRLF line endings, even with \\r and \\n in different chunks', async () => {
    const { input, lines } = await wired();
    input.write(`${echo(1, 'crlf')}\r\n`);
    input.write(`${echo(2, 'split')}\r`);
    input.write('\n');
    await lines.waitFor(2);
    expect(lines.messages).toContainEqual(echoed(1, 'crlf'));
    expect(lines.messages).toContainEqual(echoed(2, 'split'));
  });

  it('ignores blank and whitespace-only lines', async () => {
    const { input, lines } = await wired();
    input.write('\n\n   \n\t\r\n');
    input.write(`${echo(1, 'after blanks')}\n\n`);
    await lines.waitFor(1);
    await settle();
    expect(lines.messages).toStrictEqual([echoed(1, 'after blanks')]);
  });

  it('writes one line per message even when strings hold newlines and line separators', async () => {
    const { input, lines } = await wired();
    const text = 'line1\nline2\r\n\u2028\u2029end';
    input.write(`${echo(1, text)}\n`);
    await lines.waitFor(1);
    expect(lines.lines).toHaveLength(1);
    expect(lines.messages).toStrictEqual([echoed(1, text)]);
  });
});

describe('batches over stdio', () => {
  it('answers a batch line with one array line, an all-notification batch with nothing, an empty batch with one object', async () => {
    const { input, lines } = await wired();
    input.write('[{"jsonrpc":"2.0","method":"notifications/initialized"}]\n');
    input.write(`[${echo(1, 'a')},{"jsonrpc":"2.0","method":"notifications/initialized"},${echo(2, 'b')}]\n`);
    await lines.waitFor(1);
    input.write('[]\n');
    await lines.waitFor(2);
    await settle();
    expect(lines.messages).toStrictEqual([
      [echoed(1, 'a'), echoed(2, 'b')],
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch is not allowed' } },
    ]);
  });
});

describe('parse errors and the line limit', () => {
  it('answers a non-JSON line with -32700 and id null, then keeps reading', async () => {
    const { input, lines } = await wired();
    input.write('{"jsonrpc":"2.0", not json\n');
    input.write(`${echo(2, 'still here')}\n`);
    await lines.waitFor(2);
    const [error, answer] = lines.messages;
    expectNullIdError(error, -32700);
    expect((error as { error: { message: string } }).error.message).toMatch(/^Parse error/);
    expect(answer).toStrictEqual(echoed(2, 'still here'));
  });

  it('answers a line that is JSON but not an object with -32600', async () => {
    const { input, lines } = await wired();
    input.write('42\n"text"\n');
    await lines.waitFor(2);
    for (const message of lines.messages) expect(message).toStrictEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a JSON-RPC message must be a JSON object' } });
  });

  it('accepts a line of exactly maxLineLength characters and refuses one more', async () => {
    const limit = 200;
    const { input, lines } = await wired({ maxLineLength: limit });
    const base = echo(1, '');
    const fits = echo(1, 'x'.repeat(limit - base.length));
    const over = echo(2, 'x'.repeat(limit - base.length + 1));
    expect(fits).toHaveLength(limit);
    input.write(`${fits}\n${over}\n`);
    await lines.waitFor(2);
    // The parse error is written at once; the accepted request is answered when its tool returns.
    const [answers, errors] = [(lines.messages as Json[]).filter((m) => m['id'] === 1), (lines.messages as Json[]).filter((m) => m['id'] === null)];
    expect(answers).toStrictEqual([echoed(1, 'x'.repeat(limit - base.length))]);
    expect(errors).toHaveLength(1);
    expectNullIdError(errors[0], -32700);
  });

  it('answers a too-long line with ONE clear -32700 error, and later lines still work', async () => {
    const { input, lines } = await wired({ maxLineLength: 100 });
    input.write('x'.repeat(60));
    input.write('y'.repeat(60));
    input.write('z'.repeat(500));
    input.write(`z\n${echo(1, 'next')}\n`);
    await lines.waitFor(2);
    await settle();
    expect(lines.messages).toHaveLength(2);
    expect(lines.messages[0]).toStrictEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: message exceeds the 100-character line limit and was discarded' },
    });
    expect(lines.messages[1]).toStrictEqual(echoed(1, 'next'));
  });

  it('reports an over-long line while it is still arriving and stops buffering it (bounded memory)', async () => {
    const { input, lines } = await wired({ maxLineLength: 1024 });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    // 32 MiB without a newline: the error must come before the line ends.
    for (let i = 0; i < 512; i++) input.write(chunk);
    await lines.waitFor(1);
    expectNullIdError(lines.messages[0], -32700);
    for (let i = 0; i < 64; i++) input.write(chunk);
    input.write(`\n${echo(1, 'recovered')}\n`);
    await lines.waitFor(2);
    await settle();
    expect(lines.messages).toHaveLength(2);
    expect(lines.messages[1]).toStrictEqual(echoed(1, 'recovered'));
  });
});

describe('write backpressure', () => {
  it('never writes while the output needs draining, and delivers every message whole, once', async () => {
    const delivered = new PassThrough();
    const lines = new LineCollector(delivered, () => '2025-11-25', () => 'tools/call');
    // A consumer that accepts bytes but acknowledges them only when the test pumps.
    const held: (() => void)[] = [];
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _encoding, callback) {
        delivered.write(chunk);
        held.push(() => callback());
      },
    });
    let writes = 0;
    let writesWhileFull = 0;
    const output: WritableLike = {
      write(chunk, callback) {
        writes++;
        if (slow.writableNeedDrain) writesWhileFull++;
        return callback === undefined ? slow.write(chunk) : slow.write(chunk, callback);
      },
      once: (event, listener) => slow.once(event, listener),
    };
    const { input } = await wire(output);
    const count = 40;
    const text = (i: number): string => `${i}:${'payload '.repeat(20)}`;
    input.write(`${echo(1, text(1))}\n`);
    await lines.waitFor(1);
    expect(slow.writableNeedDrain).toBe(true);

    // While the consumer is stuck, responses queue up inside the transport.
    for (let i = 2; i <= count; i++) {
      input.write(`${echo(i, text(i))}\n`);
      if (i % 5 === 0) await settle(2);
    }
    await settle(10);
    expect(writes).toBe(1);
    expect(writesWhileFull).toBe(0);

    // Pump until everything has arrived and been acknowledged.
    while (lines.messages.length < count || held.length > 0) {
      held.splice(0).forEach((ack) => ack());
      await settle(2);
    }
    expect(writesWhileFull).toBe(0);
    expect(lines.messages).toHaveLength(count);
    expect(lines.partial).toBe('');
    const ids = (lines.messages as Json[]).map((m) => m['id'] as number);
    expect(new Set(ids).size).toBe(count);
    for (const message of lines.messages as Json[]) expect(message).toStrictEqual(echoed(message['id'] as number, text(message['id'] as number)));
  });
});

describe('shutdown', () => {
  it('stop() finishes even when the client stopped reading (the output never drains)', async () => {
    const written: string[] = [];
    const stuck: WritableLike = {
      write(chunk) {
        written.push(chunk);
        return false;
      },
      once: () => stuck,
    };
    const test = makeServer();
    const input = new PassThrough();
    await test.server.connect(new StdioTransport({ input, output: stuck }));
    input.write(`${echo(1, 'first')}\n`);
    await vi.waitFor(() => expect(written).toHaveLength(1));
    input.write(`${echo(2, 'queued')}\n`);
    await settle(10);
    expect(written).toHaveLength(1);
    await test.server.stop();
    // While the output is full stdin is paused: the second request was never read, and stop() did not wait.
    const messages = written.join('').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    messages.forEach((m) => checkOutgoing(m, '2025-11-25', () => 'tools/call'));
    expect(messages).toStrictEqual([echoed(1, 'first')]);
  });
});

describe('EOF and concurrency', () => {
  it('at stdin EOF, finishes and writes in-flight requests before the transport closes', async () => {
    const output = recordingOutput();
    const { test, input, closed } = await wire(output);
    let closedAt: string | undefined;
    void closed.then(() => (closedAt = output.text));
    input.write(`${record(1, 'slow', true)}\n${echo(2, 'fast')}\n`);
    input.end();
    await settle(10);
    expect(test.started).toEqual(['slow']);
    expect(closedAt).toBeUndefined();
    expect(output.messages()).toStrictEqual([echoed(2, 'fast')]);

    test.gate('slow').open();
    await closed;
    expect(closedAt).toBeDefined();
    expect(output.messages()).toStrictEqual([echoed(2, 'fast'), echoed(1, 'slow')]);
    expect(test.server.connectionCount).toBe(0);
  });

  it('answers a final line that has no trailing newline at EOF', async () => {
    const output = recordingOutput();
    const { input, closed } = await wire(output);
    input.end(echo(7, 'no newline'));
    await closed;
    expect(output.messages()).toStrictEqual([echoed(7, 'no newline')]);
  });

  it('never lets a slow tool block fast ones: every fast response is written before the slow one', async () => {
    const { test, input, lines } = await wired();
    input.write(`${record(0, 'slow', true)}\n`);
    const fast = 20;
    for (let i = 1; i <= fast; i++) input.write(`${echo(i, `fast ${i}`)}\n`);
    await lines.waitFor(fast);
    expect((lines.messages as Json[]).map((m) => m['id']).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: fast }, (_, i) => i + 1));
    expect(test.started).toEqual(['slow']);

    test.gate('slow').open();
    await lines.waitFor(fast + 1);
    expect(lines.messages[fast]).toStrictEqual(echoed(0, 'slow'));
  });

  it('runs many gated requests at once and answers each as it is released', async () => {
    const { test, input, lines } = await wired();
    const labels = ['a', 'b', 'c', 'd', 'e'];
    labels.forEach((label, i) => input.write(`${record(i + 1, label, true)}\n`));
    await settle(10);
    expect(test.started).toEqual(labels);
    for (const [i, label] of [...labels].reverse().entries()) {
      test.gate(label).open();
      await lines.waitFor(i + 1);
    }
    expect((lines.messages as Json[]).map((m) => m['id'])).toEqual([5, 4, 3, 2, 1]);
  });
});
