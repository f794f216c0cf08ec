/** Resumable streams: priming events, Last-Event-ID replay, live continuation, early close (SEP-1699). */
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from './fixtures.js';
import { eventually, messages, openSession, post, readEvents, rpc, sessionHeaders, startNode, type SseEvent, type TestServer } from './support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function resume(url: string, session: string, lastEventId: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    headers: { accept: 'text/event-stream', 'last-event-id': lastEventId, ...sessionHeaders(session) },
    ...(signal === undefined ? {} : { signal }),
  });
}

const lastId = (events: SseEvent[]): string => events.filter((e) => e.id !== undefined).at(-1)!.id!;

function progressValues(events: SseEvent[]): number[] {
  return messages(events)
    .filter((m) => 'method' in m && m.method === 'notifications/progress')
    .map((m) => (m as unknown as { params: { progress: number } }).params.progress);
}

describe('early close (closeStream) and resumption', () => {
  it('sends priming, the messages so far and a retry field, ends the stream; GET with Last-Event-ID continues live to the result', async () => {
    const { server: mcp, gates } = buildServer();
    server = await startNode(mcp);
    const session = await openSession(server.url);
    const response = await post(server.url, rpc(1, 'tools/call', { name: 'poll', arguments: { gate: 'g' }, _meta: { progressToken: 1 } }), sessionHeaders(session));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const first = await readEvents(response); // ends without the result
    expect(first[0]).toMatchObject({ data: '' });
    expect(progressValues(first)).toEqual([1]);
    expect(first.at(-1)!.retry).toBe(20);
    expect(messages(first).some((m) => 'result' in m)).toBe(false);

    const resumed = await resume(server.url, session, lastId(first));
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-type')).toBe('text/event-stream');
    gates.open('g');
    const rest = await readEvents(resumed); // ends after the final response
    expect(progressValues(rest)).toEqual([2]);
    expect(messages(rest).at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'polled' }] } });
  });
});

describe('a dropped POST stream', () => {
  it('does not cancel the request; what was sent meanwhile is replayed on resumption', async () => {
    const { server: mcp, gates } = buildServer();
    server = await startNode(mcp);
    const session = await openSession(server.url);
    const controller = new AbortController();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...sessionHeaders(session) },
      body: JSON.stringify(rpc(2, 'tools/call', { name: 'steps', arguments: { gate: 'd' }, _meta: { progressToken: 2 } })),
      signal: controller.signal,
    });
    const seen = await readEvents(response, (event) => event.data.includes('notifications/progress'));
    controller.abort();
    gates.open('d');
    await eventually(() => gates.completed.includes('steps:d')); // finished while nobody listened
    const resumed = await resume(server.url, session, lastId(seen));
    const rest = await readEvents(resumed);
    expect(gates.aborted).toEqual([]);
    expect(progressValues(rest)).toEqual([2]);
    expect(messages(rest).at(-1)).toMatchObject({ id: 2, result: { content: [{ text: 'stepped' }] } });
  });

  it('can be resumed while the request still runs, then continues live', async () => {
    const { server: mcp, gates } = buildServer();
    server = await startNode(mcp);
    const session = await openSession(server.url);
    const controller = new AbortController();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...sessionHeaders(session) },
      body: JSON.stringify(rpc(3, 'tools/call', { name: 'steps', arguments: { gate: 'live' }, _meta: { progressToken: 3 } })),
      signal: controller.signal,
    });
    const seen = await readEvents(response, (event) => event.data.includes('notifications/progress'));
    controller.abort();
    const resumed = await resume(server.url, session, lastId(seen));
    expect(resumed.status).toBe(200);
    const reading = readEvents(resumed);
    gates.open('live');
    const rest = await reading;
    expect(progressValues(rest)).toEqual([2]);
    expect(messages(rest).at(-1)).toMatchObject({ id: 3, result: { content: [{ text: 'stepped' }] } });
    expect(gates.aborted).toEqual([]);
  });
});

describe('replay', () => {
  it('replays a finished stream from its priming event, then ends', async () => {
    server = await startNode(buildServer().server);
    const session = await openSession(server.url);
    const response = await post(server.url, rpc(4, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 4 } }), sessionHeaders(session));
    const original = await readEvents(response);
    const replayed = await readEvents(await resume(server.url, session, original[0]!.id!));
    expect(replayed).toEqual(original.slice(1));
  });

  it('replays what the standalone stream missed while disconnected', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp);
    const session = await openSession(server.url);
    const controller = new AbortController();
    const stream = await fetch(server.url, { headers: { accept: 'text/event-stream', ...sessionHeaders(session) }, signal: controller.signal });
    const priming = await readEvents(stream, () => true);
    controller.abort();
    mcp.tool('while-away', { description: 'registered while the client was away' }, () => 'x');
    const url = server.url;
    let replayed: SseEvent[] = [];
    await eventually(async () => {
      const again = await resume(url, session, priming[0]!.id!);
      if (again.status !== 200) {
        await again.text(); // still attached: 409 until the server saw the disconnect
        return false;
      }
      replayed = await readEvents(again, (_e, all) => messages(all).length === 1);
      return true;
    });
    expect(messages(replayed)).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
  });

  it('refuses an unknown Last-Event-ID, and one from another session, with 400', async () => {
    server = await startNode(buildServer().server);
    const mine = await openSession(server.url);
    const theirs = await openSession(server.url);
    const response = await post(server.url, rpc(5, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 5 } }), sessionHeaders(theirs));
    const theirEvents = await readEvents(response);
    for (const lastEventId of ['nonsense', 'x:1', theirEvents[0]!.id!]) {
      const refused = await resume(server.url, mine, lastEventId);
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toContain('Last-Event-ID');
    }
  });

  it('is unavailable without an event store: no priming event, Last-Event-ID is ignored', async () => {
    server = await startNode(buildServer().server, { sessions: { eventStore: false } });
    const session = await openSession(server.url);
    const response = await post(server.url, rpc(6, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 6 } }), sessionHeaders(session));
    const events = await readEvents(response);
    expect(events.every((e) => e.id === undefined && e.data !== '')).toBe(true);
    const controller = new AbortController();
    const stream = await resume(server.url, session, 'anything', controller.signal);
    expect(stream.status).toBe(200);
    controller.abort();
  });
});
