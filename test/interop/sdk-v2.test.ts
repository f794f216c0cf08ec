/**
 * The official v2 client (@modelcontextprotocol/client 2.4.0) spawns the
 * mcpkit fixture server over stdio, in each of its negotiation modes:
 *
 * - default (`'legacy'`): the 2025 handshake; it negotiates 2025-11-25.
 * - `'auto'` and `{ pin: '2026-07-28' }`: a `server/discover` probe (on a
 *   short-lived sibling process the client spawns), then every request of the
 *   session process carries the 2026-07-28 `_meta` envelope, with no
 *   `initialize` at all; elicitation runs as a multi round-trip request.
 *
 * Every message mcpkit wrote, in every process, is validated against the
 * revision its request announced.
 */
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE } from '../support/process.js';
import { validateProcessWire, wireLog, type ProcessWire, type WireLog } from '../support/wire-log.js';

type Json = Record<string, unknown>;

const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'interop-v2', version: '2.0.0' };
const SERVER_INFO_META = { 'io.modelcontextprotocol/serverInfo': { name: 'mcpkit-fixture', version: '1.0.0' } };
const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};

let client: Client | undefined;
let log: WireLog;
const pids: number[] = [];

beforeEach(() => {
  log = wireLog();
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  // Kill anything the client left behind (session child, probe sibling).
  for (const pid of [...pids, ...log.read().map((w) => Number(w.pid))]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already exited.
    }
  }
  pids.length = 0;
  log.remove();
});

async function connect(options: ClientOptions = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { ...(process.env as Record<string, string>), MCPKIT_WIRE_LOG: log.prefix },
    stderr: 'pipe',
  });
  client = new Client(CLIENT_INFO, { capabilities: { elicitation: {} }, ...options });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { ok: true } }));
  await client.connect(transport);
  if (transport.pid !== null) pids.push(transport.pid);
  return client;
}

/** Lists, calls, reads and gets through the client; the same answers in both eras (modulo `_meta` and cache hints). */
async function exercise(c: Client, modern: boolean): Promise<void> {
  const extra = (cacheable: boolean): Json => (modern ? { _meta: SERVER_INFO_META, ...(cacheable ? { ttlMs: 0, cacheScope: 'private' } : {}) } : {});
  const tools = await c.listTools();
  expect(tools.tools.map((t) => t.name)).toEqual(['echo', 'add', 'noisy', 'fail', 'confirm', 'wait', 'release']);
  expect(await c.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi' }], ...extra(false) });
  expect(await c.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({
    content: [{ type: 'text', text: '{"sum":3}' }],
    structuredContent: { sum: 3 },
    ...extra(false),
  });
  expect(await c.callTool({ name: 'confirm', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'accept:{"ok":true}' }], ...extra(false) });
  expect(await c.readResource({ uri: 'mem://items/9' })).toEqual({ contents: [{ uri: 'mem://items/9', mimeType: 'text/plain', text: 'item 9' }], ...extra(true) });
  expect((await c.listResources()).resources.map((r) => r.uri)).toEqual(['mem://greeting']);
  expect((await c.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
  expect(await c.getPrompt({ name: 'greet', arguments: { name: 'Grace' } })).toEqual({
    description: 'Greets someone',
    messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Grace!' } }],
    ...extra(false),
  });
  await expect(c.callTool({ name: 'missing', arguments: {} })).rejects.toMatchObject({ code: -32602 });
}

function requests(wire: ProcessWire): Json[] {
  return wire.inbound.filter((m) => 'id' in m && typeof m['method'] === 'string');
}

describe('v2 client, default negotiation (legacy)', () => {
  it('negotiates 2025-11-25 with initialize and uses every foundation method', async () => {
    const c = await connect();
    expect(c.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(c.getProtocolEra()).toBe('legacy');
    expect(c.getServerVersion()).toEqual({ name: 'mcpkit-fixture', version: '1.0.0' });
    expect(c.getServerCapabilities()).toEqual(CAPABILITIES);
    await exercise(c, false);
    await c.close();

    const wires = log.read();
    expect(wires).toHaveLength(1);
    const [wire] = wires;
    expect(wire!.inbound[0]).toEqual({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: CLIENT_INFO },
    });
    expect(wire!.inbound[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // The legacy elicitation is a server→client request the client answered.
    expect(wire!.outbound.some((m) => (m as Json)['method'] === 'elicitation/create')).toBe(true);
    validateProcessWire(wire!, '2025-11-25');
  });
});

describe.each([
  ['auto', { mode: 'auto' } as const],
  ['pinned 2026-07-28', { mode: { pin: MODERN } }],
])('v2 client, %s negotiation (2026-07-28)', (_label, versionNegotiation) => {
  it('probes with server/discover, then sends the per-request _meta envelope and never initialize', async () => {
    const c = await connect({ versionNegotiation });
    expect(c.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(c.getProtocolEra()).toBe('modern');
    expect(c.getServerCapabilities()).toEqual(CAPABILITIES);
    expect(c.getDiscoverResult()).toMatchObject({ supportedVersions: [MODERN], capabilities: CAPABILITIES, resultType: 'complete' });
    await exercise(c, true);
    await c.close();

    const envelope = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const wires = log.read();
    const probe = wires.find((w) => w.inbound.some((m) => m['method'] === 'server/discover'));
    const session = wires.find((w) => w !== probe);
    expect(probe).toBeDefined();
    expect(session).toBeDefined();
    // Exactly what the client sent: one discover probe on a sibling process...
    expect(probe!.inbound).toEqual([{ jsonrpc: '2.0', id: 'server-discover-probe-1', method: 'server/discover', params: { _meta: envelope } }]);
    expect(probe!.outbound).toHaveLength(1);
    expect((probe!.outbound[0] as Json)['result']).toMatchObject({ supportedVersions: [MODERN], resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    // ...then on the session process every request carries the envelope, and no handshake.
    const sent = requests(session!);
    expect(sent.length).toBeGreaterThan(8);
    for (const request of sent) expect((request['params'] as Json)['_meta']).toEqual(envelope);
    expect(session!.inbound.some((m) => m['method'] === 'initialize' || m['method'] === 'notifications/initialized')).toBe(false);
    // Elicitation ran as a multi round-trip request: input_required, then a retry with inputResponses.
    const confirms = sent.filter((m) => (m['params'] as Json)['name'] === 'confirm');
    expect(confirms).toHaveLength(2);
    expect(confirms[1]!['params']).toMatchObject({ inputResponses: { elicitation_1: { action: 'accept', content: { ok: true } } } });
    expect(typeof (confirms[1]!['params'] as Json)['requestState']).toBe('string');
    expect(session!.outbound.some((m) => (m as Json)['method'] === 'elicitation/create')).toBe(false);
    for (const wire of wires) validateProcessWire(wire, '2025-11-25');
  });
});
