/**
 * A stdio client that writes requests but does not read the answers: the transport stops
 * reading stdin while the output is full, so the server does not keep producing answers
 * nobody reads; once the client reads again, every request is answered, in full.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/server.js';
import { StdioTransport } from '../../src/transports/stdio.js';
import { LineCollector, settle } from '../support/wire.js';

const servers: McpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

describe('stdio back-pressure', () => {
  it('pauses stdin while the output is full, and answers everything once the client reads', async () => {
    const server = new McpServer({ name: 'backpressure', version: '1.0.0' });
    servers.push(server);
    let calls = 0;
    server.tool('echo', { description: 'Echoes', input: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => {
      calls++;
      return String(text);
    });
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 16 * 1024 });
    await server.connect(new StdioTransport({ input, output }));

    const big = 'x'.repeat(10_000);
    const total = 200;
    // A client that keeps writing a request per tick and never reads.
    for (let id = 1; id <= total; id++) {
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: big } } })}\n`);
      await settle(1);
    }
    await settle(10);
    // Only what was read before the output filled ran: the other requests wait in the client's pipe.
    expect(calls).toBeLessThan(10);

    const lines = new LineCollector(output, () => '2025-11-25', () => 'tools/call');
    await lines.waitFor(total);
    expect(calls).toBe(total);
    expect(lines.partial).toBe('');
    const ids = (lines.messages as { id: number; result: { content: { text: string }[] } }[]).map((m) => {
      expect(m.result.content[0]!.text).toBe(big);
      return m.id;
    });
    expect(new Set(ids).size).toBe(total);
  });
});
