/**
 * A hostile server on stdio: before each answer it writes lines that are not
 * protocol messages (text, bytes that are not UTF-8, JSON that is not JSON-RPC,
 * lines past maxLineBytes, blank lines), each cut across writes at any byte, and
 * the answer itself is cut at any byte (inside a multi-byte character too), ends
 * in CRLF or LF, may start with a BOM. Every non-blank bad line is one warning,
 * every answer arrives intact, nothing escapes, the client keeps working.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StdioClientTransport } from '../../src/client.js';

const MAX_LINE = 1024;

// The server: each tools/call says what to write (base64 pieces, a pause after each so they arrive apart).
const script = String.raw`
const rl = require('node:readline').createInterface({ input: process.stdin });
const pause = () => new Promise((resolve) => setTimeout(resolve, 1));
let chain = Promise.resolve();
rl.on('line', (line) => { chain = chain.then(() => handle(JSON.parse(line))); });
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
async function handle(m) {
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } } });
  if (m.method !== 'tools/call') return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'not here' } });
  const { pieces, text, bom, crlf, cut } = m.params.arguments;
  for (const piece of pieces) {
    process.stdout.write(Buffer.from(piece, 'base64'));
    await pause();
  }
  const answer = Buffer.from((bom ? '\uFEFF' : '') + JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text }] } }) + (crlf ? '\r\n' : '\n'));
  const at = Math.min(cut, answer.length);
  process.stdout.write(answer.subarray(0, at));
  await pause();
  process.stdout.write(answer.subarray(at));
}
`;

/** A bad line (without its LF), as bytes. */
const badLine = fc.oneof(
  fc.constantFrom('', ' ', '\t', '\r', '  \r').map((s) => Buffer.from(s)),
  fc.string({ minLength: 1, maxLength: 60, unit: 'binary' }).map((s) => Buffer.from(s.replace(/\n/g, ' '))),
  fc.json({ maxDepth: 2 }).map((s) => Buffer.from(s)),
  fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => Buffer.from(bytes.map((b) => (b === 10 ? 0xff : b)))),
  fc.integer({ min: MAX_LINE + 1, max: 4 * MAX_LINE }).map((n) => Buffer.from('y'.repeat(n))),
);

/** A bad line and where it is cut (0: not cut). */
const piece = fc.tuple(badLine, fc.nat()).map(([line, cut]) => {
  const bytes = Buffer.concat([line, Buffer.from('\n')]);
  const at = cut % bytes.length;
  return { line, parts: at === 0 ? [bytes] : [bytes.subarray(0, at), bytes.subarray(at)] };
});

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
let client: Client;
const warnings: string[] = [];

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  client = new Client({ protocolVersion: '2025-11-25', requestTimeoutMs: 10_000, onWarning: (message) => void warnings.push(message) });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['-e', script], maxLineBytes: MAX_LINE, graceMs: 200 }));
});

afterAll(async () => {
  await client.close();
  process.off('unhandledRejection', onUnhandled);
});

describe('a hostile server on stdio', () => {
  it('costs one warning per bad line, never an answer, and the client keeps working', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 5 }), fc.string({ maxLength: 40, unit: 'grapheme' }), fc.boolean(), fc.boolean(), fc.nat(), async (pieces, text, bom, crlf, cut) => {
        warnings.length = 0;
        const args = { pieces: pieces.flatMap((p) => p.parts.map((part) => part.toString('base64'))), text: `é😀中${text}`, bom, crlf, cut: cut % 200 };
        const result = await client.callTool('answer', args);
        expect(result.content).toEqual([{ type: 'text', text: args.text }]);
        const bad = pieces.filter((p) => p.line.toString('utf8').trim() !== '').length;
        expect(warnings).toHaveLength(bad);
        for (const warning of warnings) expect(warning).toMatch(/not JSON|not JSON-RPC|longer than maxLineBytes/);
      }),
      { numRuns: 60 },
    );
    await expect(client.ping()).rejects.toMatchObject({ code: -32601 });
    expect(unhandled).toEqual([]);
  }, 120_000);
});
