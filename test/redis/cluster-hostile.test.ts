/**
 * A hostile client against two instances on one Redis (in one process, so
 * their connection counts can be read): another principal's lookup never ends
 * a session's copy, concurrent first requests build one copy, repeated
 * resumptions of one stream keep one follower, and malformed messages get the
 * answer one process gives.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { createRedisState, type RedisState } from '../../src/redis.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { freshPrefix } from './support.js';

const VERSION = '2025-11-25';
const KEY = 'cluster-hostile-test-key-0123456789abcdef';
interface Instance {
  server: McpServer;
  listener: McpHttpListener;
  url: string;
}
let redis: RedisServer;
let plain: Instance;
const instances: Instance[] = [];
const closers: (() => Promise<unknown>)[] = [];

function serverWith(extra: object): McpServer {
  const server = new McpServer({ name: 'hostile', version: '1.0.0', capabilities: { resources: { subscribe: true } }, ...extra });
  server.tool('slow', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
    await ctx.progress?.(0, 1, 'started');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return 'done';
  });
  server.resource('test://watched', { name: 'watched' }, () => 'watched');
  return server;
}

const auth = { authorizationServers: ['https://as.example'], verify: (token: string) => ({ subject: token }) };

beforeAll(async () => {
  redis = await startRedis();
  const prefix = freshPrefix();
  for (const instanceId of ['ha', 'hb']) {
    const client = createClient({ url: redis.url });
    client.on('error', () => undefined);
    await client.connect();
    const state: RedisState = await createRedisState({ client, instanceId, prefix, stateKeys: [KEY] });
    const server = serverWith(state.server);
    const listener = await listen(server, { port: 0, auth, ...state.http });
    instances.push({ server, listener, url: listener.url });
    closers.push(() => listener.close(), () => state.close(), () => client.close());
  }
  const server = serverWith({});
  const listener = await listen(server, { port: 0, auth });
  plain = { server, listener, url: listener.url };
  closers.push(() => listener.close());
});

afterAll(async () => {
  for (const close of closers) await close();
  await redis?.close();
});

const headers = (token: string, session?: string, extra: Record<string, string> = {}): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': VERSION,
  ...(session === undefined ? {} : { 'mcp-session-id': session }),
  ...extra,
});

const post = (url: string, token: string, session: string | undefined, body: unknown): Promise<Response> =>
  fetch(url, { method: 'POST', headers: headers(token, session), body: typeof body === 'string' ? body : JSON.stringify(body) });

async function open(url: string, token: string): Promise<string> {
  const init = await post(url, token, undefined, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'h', version: '1' } } });
  expect(init.status).toBe(200);
  await init.text();
  const session = init.headers.get('mcp-session-id')!;
  expect((await post(url, token, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  return session;
}

/** Reads an SSE body until `found` holds for the text so far; undefined when the stream ended first. */
async function readUntil(body: ReadableStream<Uint8Array>, found: (text: string) => boolean): Promise<string | undefined> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    while (!found(text)) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      text += value;
    }
    return text;
  } catch {
    return undefined;
  } finally {
    reader.releaseLock();
  }
}

describe('a hostile client against two instances on Redis', () => {
  it("another principal's request naming a session gets 404 and leaves the owner's copy and GET stream alone", async () => {
    const [a, b] = instances as [Instance, Instance];
    const session = await open(a.url, 'alice');
    expect((await (await post(a.url, 'alice', session, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'test://watched' } })).json())).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const gone = new AbortController();
    const stream = await fetch(b.url, { headers: headers('alice', session, { accept: 'text/event-stream' }), signal: gone.signal });
    expect(stream.status).toBe(200);
    const connections = b.server.connectionCount;

    for (let i = 0; i < 3; i++) expect((await post(b.url, 'mallory', session, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(404);
    expect(b.server.connectionCount).toBe(connections);
    await a.server.notifyResourceUpdated('test://watched');
    expect(await readUntil(stream.body!, (text) => text.includes('notifications/resources/updated'))).toContain('{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://watched"}}');
    gone.abort();
  });

  it('forty concurrent first requests on another instance build one copy; DELETE leaves no connection behind', async () => {
    const [a, b] = instances as [Instance, Instance];
    const before = b.server.connectionCount;
    for (let round = 0; round < 5; round++) {
      const session = await open(a.url, 'bob');
      const answers = await Promise.all(Array.from({ length: 40 }, async (_, i) => (await post(b.url, 'bob', session, { jsonrpc: '2.0', id: i, method: 'tools/list' })).status));
      expect(new Set(answers)).toEqual(new Set([200]));
      expect(b.server.connectionCount).toBe(before + 1);
      expect((await fetch(a.url, { method: 'DELETE', headers: headers('bob', session) })).status).toBe(204);
      await expect.poll(() => b.server.connectionCount).toBe(before);
    }
  });

  it('resuming one stream again on an instance ends the previous follower there: one follower per stream', async () => {
    const [a, b] = instances as [Instance, Instance];
    const session = await open(a.url, 'carol');
    const call = await post(a.url, 'carol', session, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: { progressToken: 't' } } });
    const first = await readUntil(call.body!, (text) => /id: \S+/.test(text));
    const lastEventId = /id: (\S+)/.exec(first!)![1]!;
    const followers: Response[] = [];
    for (let i = 0; i < 5; i++) {
      const resumed = await fetch(b.url, { headers: headers('carol', session, { accept: 'text/event-stream', 'last-event-id': lastEventId }) });
      expect(resumed.status).toBe(200);
      followers.push(resumed);
    }
    // The four taken over end without the result; the last one follows to it.
    const texts = await Promise.all(followers.map(async (resumed) => readUntil(resumed.body!, (text) => text.includes('"id":7'))));
    expect(texts.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(texts[4]).toContain('{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"done"}]}}');
  });

  it('malformed cancellations and answers get the answer one process gives, not a silent 202', async () => {
    const [a] = instances as [Instance, Instance];
    const clustered = await open(a.url, 'dave');
    const single = await open(plain.url, 'dave');
    const bodies = [
      { jsonrpc: '2.0', id: 1, method: 'notifications/cancelled', params: 5 },
      { method: 'notifications/cancelled' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: 5 },
      { id: 'x@hb.1', result: 1 },
      { jsonrpc: '2.0', id: 'x@hb.1', result: {}, error: { code: 1, message: 'both' } },
    ];
    for (const body of bodies) {
      const [there, here] = await Promise.all([post(a.url, 'dave', clustered, body), post(plain.url, 'dave', single, body)]);
      expect({ status: there.status, body: await there.text() }).toEqual({ status: here.status, body: await here.text() });
    }
  });
});
