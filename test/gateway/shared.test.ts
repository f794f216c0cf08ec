/**
 * `spawn: "shared"`: one stdio upstream process for every downstream client. Its requests for
 * input and log lines carry nothing that names the downstream call they belong to, so the
 * gateway relays one only when every call in progress on the process is one client's; with two
 * clients' calls in progress it refuses the request (the upstream gets an error) and drops the
 * line, rather than hand one client's elicitation or log to another.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type McpHttpListener } from '../../src/adapters/node.js';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { createGateway, type McpGateway } from '../../src/gateway.js';
import { eventually } from '../support/eventually.js';
import { LEGACY } from '../support/revisions.js';
import { wireFetch, type WireFetch } from './wire-fetch.js';

const ASKER = fileURLToPath(new URL('./fixtures/asker.mjs', import.meta.url));

let gateway: McpGateway;
let listener: McpHttpListener;
const clients: Client[] = [];

beforeAll(async () => {
  gateway = createGateway({ mcpServers: { ask: { command: process.execPath, args: [ASKER], spawn: 'shared' } } }, { proxy: { onStderr: () => undefined } });
  expect(await gateway.ready()).toEqual([]);
  listener = await listen(gateway.server, { port: 0 });
}, 30_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await listener.close();
  await gateway.close();
});

interface Downstream {
  client: Client;
  wire: WireFetch;
  asked: string[];
  logs: unknown[];
}

async function downstream(name: string): Promise<Downstream> {
  const asked: string[] = [];
  const logs: unknown[] = [];
  const wire = wireFetch(LEGACY);
  const client = new Client({ protocolVersion: LEGACY, elicitation: (params) => (asked.push(params.message), { action: 'accept', content: { who: name } }) });
  await client.connect(new StreamableHttpTransport(listener.url, { fetch: wire.fetch }));
  clients.push(client);
  client.on('notifications/message', (params) => logs.push(params['data']));
  await client.setLoggingLevel('info');
  return { client, wire, asked, logs };
}

const textOf = (result: { content?: unknown }): string => ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');
const calls = (): number => gateway.proxies.get('ask')!.requests['tools/call'] ?? 0;

describe('spawn: "shared" with two downstream clients', () => {
  it('one client alone: its request for input and its log line reach it', async () => {
    const alice = await downstream('alice');
    const bob = await downstream('bob');
    const asking = alice.client.callTool('ask_ask', { label: 'solo' });
    await alice.client.callTool('ask_release', { label: 'solo' });
    expect(textOf(await asking)).toBe('answered: {"who":"alice"}');
    expect(textOf(await alice.client.callTool('ask_say', { text: 'for alice' }))).toBe('said');
    await eventually(() => alice.logs.includes('for alice'));
    expect(bob.asked).toEqual([]);
    expect(bob.logs).toEqual([]);
    expect([alice.wire.problems, bob.wire.problems]).toEqual([[], []]);
  }, 30_000);

  it('two clients with calls in progress: the request for input is refused, not sent to the other client; the log line is dropped', async () => {
    const alice = await downstream('alice');
    const bob = await downstream('bob');
    const before = calls();
    const asking = alice.client.callTool('ask_ask', { label: 'a' });
    const waiting = bob.client.callTool('ask_wait', { label: 'b' });
    // Both calls went upstream before alice's is let go.
    await eventually(() => calls() >= before + 2);
    await alice.client.callTool('ask_release', { label: 'a' });
    const answer = textOf(await asking);
    expect(answer).toMatch(/^refused: .*shared/);
    expect(bob.asked).toEqual([]);
    expect(alice.asked).toEqual([]);
    expect(textOf(await alice.client.callTool('ask_say', { text: 'while bob waits' }))).toBe('said');
    await bob.client.callTool('ask_release', { label: 'b' });
    expect(textOf(await waiting)).toBe('released b');
    // A later line reaches its caller: the one above went nowhere, not to bob.
    await alice.client.callTool('ask_say', { text: 'after' });
    await eventually(() => alice.logs.includes('after'));
    expect(bob.logs).toEqual([]);
    expect(alice.logs).not.toContain('while bob waits');
    expect([alice.wire.problems, bob.wire.problems]).toEqual([[], []]);
  }, 30_000);
});
