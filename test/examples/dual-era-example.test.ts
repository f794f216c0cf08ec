/**
 * Runs examples/dual-era the way a user would (node main.js, from the built
 * package) and drives its one tool from a legacy session and from a
 * 2026-07-28 client over HTTP, then over stdio. Same handler, same answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningUrl } from '../support/process.js';
import { expectValidWire } from '../support/wire-schema.js';
import { meta, MODERN, modernRequest, openRaw, postRaw } from '../fixtures/modern-http.mjs';

type Json = Record<string, unknown>;
const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

function run(args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, ['examples/dual-era/main.js', ...args], { cwd: root, env: { ...process.env, PORT: '0' }, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

const urlOf = listeningUrl;

let url: string;
beforeAll(async () => {
  url = await urlOf(run());
});
afterAll(async () => {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }),
  );
});

const args = { restaurant: 'Chez Nous' };
const booked = { content: [{ type: 'text', text: 'Booked a table for 4 at Chez Nous.' }] };

describe('examples/dual-era over HTTP', () => {
  it('a legacy session: elicitation arrives as a server request, the log as a notification', async () => {
    const revision = '2025-11-25';
    const init = await postRaw(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: revision, capabilities: { elicitation: {} }, clientInfo: { name: 'legacy', version: '1' } } });
    expectValidWire(init.messages[0], revision, 'initialize');
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': revision };
    await postRaw(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);

    const stream = await openRaw(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'book_table', arguments: args } }, headers);
    const seen: Json[] = [];
    let message = (await stream.next()) as Json;
    while ('method' in message) {
      expectValidWire(message, revision);
      seen.push(message);
      if (message['method'] === 'elicitation/create') {
        const answer = await postRaw(url, { jsonrpc: '2.0', id: message['id'], result: { action: 'accept', content: { people: 4 } } }, headers);
        expect(answer.status).toBe(202);
      }
      message = (await stream.next()) as Json;
    }
    expectValidWire(message, revision, 'tools/call');
    expect(seen.map((m) => m['method'])).toEqual(['notifications/message', 'elicitation/create']);
    expect(message['result']).toEqual(booked);
  });

  it('a 2026-07-28 client: input_required, then a retry with the answer; x-mcp-header is enforced', async () => {
    const withHeader = { headers: { 'mcp-param-restaurant': args.restaurant } };
    const missing = await modernRequest(url, 1, 'tools/call', { name: 'book_table', arguments: args });
    expect(missing.status).toBe(400);
    expect(missing.messages[0]).toMatchObject({ error: { code: -32020 } });

    const r1 = await modernRequest(url, 2, 'tools/call', { name: 'book_table', arguments: args }, withHeader);
    expect(r1.messages).toHaveLength(1);
    expectValidWire(r1.messages[0], MODERN, 'tools/call');
    const first = (r1.messages[0] as { result: Json }).result;
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { party_size: { method: 'elicitation/create' } } });

    const r2 = await modernRequest(url, 3, 'tools/call', {
      name: 'book_table',
      arguments: args,
      requestState: first['requestState'],
      inputResponses: { party_size: { action: 'accept', content: { people: 4 } } },
    }, withHeader);
    expectValidWire(r2.messages[0], MODERN, 'tools/call');
    const { resultType, _meta, ...rest } = (r2.messages[0] as { result: Json }).result;
    expect(resultType).toBe('complete');
    expect(_meta).toMatchObject({ 'io.modelcontextprotocol/serverInfo': { name: 'dual-era-example' } });
    expect(rest).toEqual(booked);

    const list = await modernRequest(url, 4, 'tools/list');
    expect((list.messages[0] as { result: Json }).result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
  });
});

describe('examples/dual-era over stdio', () => {
  it('answers server/discover and a modern tools/call', async () => {
    const child = run(['--stdio']);
    const out: Json[] = [];
    let buffer = '';
    const arrived = (count: number): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (out.length >= count) {
            child.stdout!.off('data', onData);
            resolve();
          }
        };
        const onData = (chunk: Buffer): void => {
          buffer += String(chunk);
          let nl: number;
          while ((nl = buffer.indexOf('\n')) !== -1) {
            out.push(JSON.parse(buffer.slice(0, nl)) as Json);
            buffer = buffer.slice(nl + 1);
          }
          check();
        };
        child.stdout!.on('data', onData);
        check();
      });
    const send = (message: Json): void => void child.stdin!.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta({}) } });
    await arrived(1);
    expectValidWire(out[0], MODERN, 'server/discover');
    expect(out[0]).toMatchObject({ id: 1, result: { supportedVersions: [MODERN], resultType: 'complete' } });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'book_table', arguments: args, _meta: meta({ elicitation: {} }) } });
    await arrived(2);
    expectValidWire(out[1], MODERN, 'tools/call');
    expect(out[1]).toMatchObject({ id: 2, result: { resultType: 'input_required', inputRequests: { party_size: {} } } });
  });
});
