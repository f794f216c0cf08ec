/**
 * The first seed's example, verbatim: an `echo` tool registered on
 * `server.tools`, a StdioTransport over a PassThrough pair, one request line in,
 * exactly one response line out.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/server.js';
import { StdioTransport } from '../../src/transports/stdio.js';
import { LineCollector } from '../support/wire.js';

const REQUEST = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}';
const RESPONSE = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}';

describe('the seed example over stdio', () => {
  let server: McpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('answers the request line with exactly the seed’s response line', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    server = new McpServer({
      name: 'my-aidex-mcp-server',
      version: '0.1.0',
      transport: new StdioTransport({ input, output }),
    });
    server.tools.register({
      name: 'echo',
      description: 'Echoes the input back',
      async execute(input: { text: string }) {
        return { content: [{ type: 'text', text: input.text }] };
      },
    });
    const lines = new LineCollector(output, () => '2025-11-25', () => 'tools/call');
    await server.start();
    expect(server.isStarted()).toBe(true);

    input.write(`${REQUEST}\n`);
    await lines.waitFor(1);

    expect(lines.lines).toEqual([RESPONSE]);
    expect(lines.partial).toBe('');
    await server.stop();
    expect(server.isStarted()).toBe(false);
  });
});
