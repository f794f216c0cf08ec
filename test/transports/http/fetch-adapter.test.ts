/**
 * The fetch adapter answers exactly like the node adapter: the same scenarios
 * run against both and must produce the same statuses, headers and bodies.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, type Gates } from './fixtures.js';
import {
  eventually,
  initializeBody,
  messages,
  openSession,
  post,
  rawRequest,
  readEvents,
  rpc,
  sessionHeaders,
  startFetch,
  startNode,
  type TestServer,
} from './support.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

type Outcome = Record<string, unknown>;

async function summary(response: Response): Promise<Outcome> {
  const type = response.headers.get('content-type');
  const out: Outcome = { status: response.status, type, allow: response.headers.get('allow'), session: response.headers.get('mcp-session-id') !== null };
  if (type === 'text/event-stream') {
    const events = await readEvents(response);
    out['events'] = events.map((e) => ({ primed: e.id !== undefined, data: e.data, retry: e.retry }));
  } else {
    out['body'] = await response.text();
  }
  return out;
}

const scenarios: Record<string, (url: string, gates: Gates) => Promise<Outcome[]>> = {
  'initialize, call, stream, delete': async (url) => {
    const init = await summary(await post(url, initializeBody()));
    const session = await openSession(url);
    const echo = await summary(await post(url, rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }), sessionHeaders(session)));
    const streamed = await summary(await post(url, rpc(2, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 2 } }), sessionHeaders(session)));
    const note = await summary(await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(session)));
    const deleted = await summary(await fetch(url, { method: 'DELETE', headers: sessionHeaders(session) }));
    const gone = await summary(await post(url, rpc(3, 'ping'), sessionHeaders(session)));
    return [init, echo, streamed, note, deleted, gone];
  },
  'header and body errors': async (url) => {
    const session = await openSession(url);
    return Promise.all([
      post(url, initializeBody(), { accept: 'application/json' }).then(summary),
      post(url, initializeBody(), { 'content-type': 'text/plain' }).then(summary),
      post(url, '{oops').then(summary),
      post(url, rpc(1, 'tools/list', { pad: 'x'.repeat(5000) })).then(summary),
      post(url, [1, 2, 3, 4, 5].map((n) => rpc(n, 'ping')), sessionHeaders(session)).then(summary),
      post(url, rpc(1, 'tools/list')).then(summary),
      post(url, rpc(1, 'tools/list'), sessionHeaders('unknown')).then(summary),
      post(url, rpc(1, 'tools/list'), { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' }).then(summary),
      fetch(url, { method: 'PUT' }).then(summary),
      fetch(url, { headers: { accept: 'text/event-stream' } }).then(summary),
    ]);
  },
  'standalone stream and conflict': async (url) => {
    const session = await openSession(url);
    const controller = new AbortController();
    const first = await fetch(url, { headers: { accept: 'text/event-stream', ...sessionHeaders(session) }, signal: controller.signal });
    const priming = await readEvents(first, () => true);
    const second = await summary(await fetch(url, { headers: { accept: 'text/event-stream', ...sessionHeaders(session) } }));
    controller.abort();
    return [{ status: first.status, primed: priming[0]?.id !== undefined && priming[0].data === '' }, second];
  },
  'early close and resumption': async (url, gates) => {
    const session = await openSession(url);
    const response = await post(url, rpc(4, 'tools/call', { name: 'poll', arguments: { gate: 'p' }, _meta: { progressToken: 4 } }), sessionHeaders(session));
    const first = await readEvents(response);
    const resumed = await fetch(url, { headers: { accept: 'text/event-stream', 'last-event-id': first.at(-1)!.id ?? first[1]!.id!, ...sessionHeaders(session) } });
    gates.open('p');
    const rest = await readEvents(resumed);
    return [
      { first: first.map((e) => ({ primed: e.id !== undefined, data: e.data, retry: e.retry })) },
      { status: resumed.status, rest: messages(rest) },
    ];
  },
};

describe('fetch adapter parity with the node adapter', () => {
  for (const [name, run] of Object.entries(scenarios)) {
    it(name, async () => {
      const outcomes: Outcome[][] = [];
      for (const start of [startNode, startFetch]) {
        const { server: mcp, gates } = buildServer(undefined, { limits: { maxBatchSize: 4 } });
        const s = await start(mcp, { limits: { maxBodyBytes: 4096 } });
        servers.push(s);
        outcomes.push(await run(s.url, gates));
      }
      expect(outcomes[1]).toEqual(outcomes[0]);
      expect(outcomes[0]!.length).toBeGreaterThan(1);
    });
  }

  it('produces the expected answers (the shared scenarios are not vacuous)', async () => {
    const { server: mcp, gates } = buildServer(undefined, { limits: { maxBatchSize: 4 } });
    const s = await startFetch(mcp, { limits: { maxBodyBytes: 4096 } });
    servers.push(s);
    const [init, echo, streamed, note, deleted, gone] = await scenarios['initialize, call, stream, delete']!(s.url, gates);
    expect(init).toMatchObject({ status: 200, type: 'application/json', session: true });
    expect(echo).toMatchObject({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}' });
    expect(streamed).toMatchObject({ status: 200, type: 'text/event-stream' });
    expect((streamed!['events'] as unknown[]).length).toBe(6);
    expect(note).toMatchObject({ status: 202, body: '' });
    expect(deleted).toMatchObject({ status: 204 });
    expect(gone).toMatchObject({ status: 404 });
    const errors = await scenarios['header and body errors']!(s.url, gates);
    expect(errors.map((o) => o['status'])).toEqual([406, 415, 400, 413, 400, 400, 404, 400, 405, 400]);
  });
});

describe('fetch adapter specifics', () => {
  it('refuses a foreign Host with 403', async () => {
    const s = await startFetch(buildServer().server);
    servers.push(s);
    const response = await rawRequest(s.url, { headers: { host: 'evil.example.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(response.status).toBe(403);
  });

  it('aborts the request when the client goes away', async () => {
    const { server: mcp, gates } = buildServer();
    const s = await startFetch(mcp);
    servers.push(s);
    const session = await openSession(s.url);
    const controller = new AbortController();
    const call = fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...sessionHeaders(session) },
      body: JSON.stringify(rpc(1, 'tools/call', { name: 'wait', arguments: { gate: 'gone' } })),
      signal: controller.signal,
    });
    await eventually(() => gates.waiting('gone'));
    controller.abort();
    await call.catch(() => undefined);
    await eventually(() => gates.aborted.includes('gone'));
  });

  it('serves the SDK v1 client', async () => {
    const { server: mcp } = buildServer();
    const s = await startFetch(mcp);
    servers.push(s);
    const client = new Client({ name: 'v1', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url)));
    const progress: number[] = [];
    const result = await client.callTool({ name: 'progress', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(result.content).toEqual([{ type: 'text', text: 'progressed' }]);
    expect(progress).toEqual([1, 2, 3]);
    await client.close();
  });
});
