/** Response modes, SSE framing, the standalone GET stream, server→client requests, concurrency and disconnects. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from './fixtures.js';
import { eventually, messages, openSession, post, readEvents, rpc, sessionHeaders, startNode, type TestServer } from './support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const progressCall = (id: number) => rpc(id, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: `t${id}` } });
const echoCall = (id: number, text: string) => rpc(id, 'tools/call', { name: 'echo', arguments: { text } });

describe("responseMode 'auto' (default)", () => {
  it('answers JSON when the request emits nothing before its result', async () => {
    server = await startNode(buildServer().server);
    const id = await openSession(server.url);
    const response = await post(server.url, echoCall(1, 'plain'), sessionHeaders(id));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBe(id);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'plain' }] } });
  });

  it('switches to SSE at the first message: priming event, messages with ids, the result last, then the end', async () => {
    server = await startNode(buildServer().server);
    const id = await openSession(server.url);
    const response = await post(server.url, progressCall(2), sessionHeaders(id));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const events = await readEvents(response); // reads to the end: the stream must close
    expect(events[0]).toMatchObject({ data: '' });
    expect(events[0]!.id).toBeTruthy();
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(events.length);
    const sent = messages(events);
    expect(sent.map((m) => ('method' in m ? m.method : 'result'))).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'notifications/message',
      'result',
    ]);
    expect(sent.at(-1)).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'progressed' }] } });
  });
});

describe("responseMode 'json' and 'sse'", () => {
  it("'json' answers JSON and sends the request's notifications on the standalone stream", async () => {
    server = await startNode(buildServer().server, { responseMode: 'json' });
    const id = await openSession(server.url);
    const stream = await fetch(server.url, { headers: { accept: 'text/event-stream', ...sessionHeaders(id) } });
    expect(stream.status).toBe(200);
    const collected = readEvents(stream, (_e, all) => messages(all).length === 4);
    const response = await post(server.url, progressCall(3), sessionHeaders(id));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({ id: 3, result: { content: [{ text: 'progressed' }] } });
    const standalone = messages(await collected);
    expect(standalone.map((m) => ('method' in m ? m.method : ''))).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'notifications/message',
    ]);
  });

  it("'sse' streams every request, even one that emits nothing", async () => {
    server = await startNode(buildServer().server, { responseMode: 'sse' });
    const id = await openSession(server.url);
    const response = await post(server.url, echoCall(4, 'streamed'), sessionHeaders(id));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = await readEvents(response);
    expect(events.length).toBe(2);
    expect(events[0]!.data).toBe('');
    expect(JSON.parse(events[1]!.data)).toMatchObject({ id: 4, result: { content: [{ text: 'streamed' }] } });
  });

  it("'sse' still answers a notification with 202", async () => {
    server = await startNode(buildServer().server, { responseMode: 'sse' });
    const id = await openSession(server.url);
    const response = await post(server.url, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, sessionHeaders(id));
    expect(response.status).toBe(202);
  });
});

describe('standalone GET stream', () => {
  it('carries messages not tied to a request, after a priming event', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const id = await openSession(server.url);
    const stream = await fetch(server.url, { headers: { accept: 'text/event-stream', ...sessionHeaders(id) } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const collected = readEvents(stream, (_e, all) => messages(all).length === 1);
    mcp.tool('added-later', { description: 'registered after connect' }, () => 'x');
    const events = await collected;
    expect(events[0]!.data).toBe('');
    expect(events[0]!.id).toBeTruthy();
    expect(messages(events)).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
  });

  it('allows one per session: a second concurrent GET gets 409, a GET after the first closed is accepted', async () => {
    server = await startNode(buildServer().server);
    const id = await openSession(server.url);
    const controller = new AbortController();
    const first = await fetch(server.url, { headers: { accept: 'text/event-stream', ...sessionHeaders(id) }, signal: controller.signal });
    expect(first.status).toBe(200);
    const second = await fetch(server.url, { headers: { accept: 'text/event-stream', ...sessionHeaders(id) } });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: { message: string } }).error.message).toContain('one standalone stream');
    controller.abort();
    const url = server.url;
    await eventually(async () => {
      const again = await fetch(url, { headers: { accept: 'text/event-stream', ...sessionHeaders(id) } });
      if (again.status === 200) await again.body?.cancel();
      else await again.text();
      return again.status === 200;
    });
  });

  it('refuses GET without a session with 400', async () => {
    server = await startNode(buildServer().server);
    const response = await fetch(server.url, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(400);
  });
});

describe('server→client requests', () => {
  it('travel on the originating request stream; the POSTed answer is routed back (202)', async () => {
    server = await startNode(buildServer().server);
    const response = await post(server.url, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } },
    });
    const id = response.headers.get('mcp-session-id')!;
    await response.text();
    const url = server.url;
    const call = await post(url, rpc(5, 'tools/call', { name: 'elicit', arguments: {} }), sessionHeaders(id));
    expect(call.headers.get('content-type')).toBe('text/event-stream');
    const events = await readEvents(call, (event) => {
      if (event.data === '') return false;
      const message = JSON.parse(event.data) as { id?: string | number; method?: string };
      if (message.method === 'elicitation/create') {
        void post(url, { jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { name: 'Ada' } } }, sessionHeaders(id)).then((answer) => {
          expect(answer.status).toBe(202);
        });
      }
      return message.id === 5 && message.method === undefined;
    });
    const sent = messages(events);
    expect(sent[0]).toMatchObject({ method: 'elicitation/create', params: { message: 'What is your name?' } });
    expect(sent.at(-1)).toEqual({ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'hello Ada' }] } });
  });
});

describe('concurrency', () => {
  it('does not serialize the requests of one session: a fast call completes while a slow one waits', async () => {
    const { server: mcp, gates } = buildServer();
    server = await startNode(mcp);
    const id = await openSession(server.url);
    const slow = post(server.url, rpc(1, 'tools/call', { name: 'wait', arguments: { gate: 'slow' } }), sessionHeaders(id));
    await eventually(() => gates.waiting('slow'));
    const fast = await post(server.url, echoCall(2, 'fast'), sessionHeaders(id));
    expect(await fast.json()).toMatchObject({ id: 2 });
    expect(gates.completed).toEqual(['echo:fast']);
    gates.open('slow');
    expect(await (await slow).json()).toMatchObject({ id: 1, result: { content: [{ text: 'released slow' }] } });
    expect(gates.completed).toEqual(['echo:fast', 'wait:slow']);
  });
});

describe('client disconnects', () => {
  it('abort the request signal when nothing was streamed yet', async () => {
    const { server: mcp, gates } = buildServer();
    server = await startNode(mcp);
    const id = await openSession(server.url);
    const controller = new AbortController();
    const call = fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...sessionHeaders(id) },
      body: JSON.stringify(rpc(1, 'tools/call', { name: 'wait', arguments: { gate: 'never' } })),
      signal: controller.signal,
    });
    await eventually(() => gates.waiting('never'));
    controller.abort();
    await call.catch(() => undefined);
    await eventually(() => gates.aborted.includes('never'));
    expect(gates.completed).toEqual([]);
  });

  it('abort a stateless streamed request (it cannot be resumed)', async () => {
    const { server: mcp, gates } = buildServer();
    server = await startNode(mcp, { stateless: true });
    const response = await post(server.url, rpc(1, 'tools/call', { name: 'steps', arguments: { gate: 's' }, _meta: { progressToken: 1 } }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    await readEvents(response, (event) => event.data.includes('notifications/progress'));
    await eventually(() => gates.aborted.includes('s'));
  });
});

describe('slow readers', () => {
  it('are dropped once maxStreamBufferBytes is exceeded instead of buffering without bound', async () => {
    const { server: mcp, gates } = buildServer();
    server = await startNode(mcp, { maxStreamBufferBytes: 256 * 1024 });
    const id = await openSession(server.url);
    const response = await post(server.url, rpc(1, 'tools/call', { name: 'flood', arguments: {} }), sessionHeaders(id));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    await eventually(() => gates.completed.includes('flood')); // the client has read nothing so far
    const events = await readEvents(response);
    expect(messages(events).length).toBeLessThan(400);
  });
});

describe('batches (2025-03-26)', () => {
  it('answers a batch of requests with an array in order', async () => {
    server = await startNode(buildServer().server);
    const init = await post(server.url, rpc(0, 'initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'b', version: '1' } }));
    const id = init.headers.get('mcp-session-id')!;
    await init.text();
    const response = await post(server.url, [rpc(1, 'ping'), echoCall(2, 'b'), { jsonrpc: '2.0', method: 'notifications/initialized' }], {
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-03-26',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number }[];
    expect(body.map((r) => r.id)).toEqual([1, 2]);
  });
});

