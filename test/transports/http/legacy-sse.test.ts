/** The deprecated HTTP+SSE transport (2024-11-05), opt-in, with raw HTTP. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from './fixtures.js';
import { eventually, messages, post, readEvents, startNode, type SseEvent, type TestServer } from './support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } } };

describe('HTTP+SSE (legacySse: true)', () => {
  it('announces the POST endpoint first, answers POSTs with 202 and streams their responses', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp, { legacySse: true });
    const controller = new AbortController();
    const stream = await fetch(new URL('/sse', server.url), { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const base = server.url;
    const posted: number[] = [];
    const events = await readEvents(stream, (event: SseEvent, all) => {
      if (event.event === 'endpoint') {
        const endpoint = new URL(event.data, base).toString();
        void (async () => {
          posted.push((await post(endpoint, initialize)).status);
          posted.push((await post(endpoint, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 9 } } })).status);
        })();
      }
      return messages(all).some((m) => 'id' in m && m.id === 1 && !('method' in m));
    });
    controller.abort();
    expect(events[0]!.event).toBe('endpoint');
    expect(events[0]!.data).toMatch(/^\/messages\?sessionId=[\x21-\x7e]+$/);
    expect(posted).toEqual([202, 202]);
    const sent = messages(events);
    expect(sent[0]).toMatchObject({ id: 0, result: { protocolVersion: '2024-11-05' } });
    expect(sent.slice(1).map((m) => ('method' in m ? m.method : 'result'))).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'notifications/message',
      'result',
    ]);
  });

  it('ends the session when the stream closes', async () => {
    const { server: mcp } = buildServer();
    server = await startNode(mcp, { legacySse: true });
    const controller = new AbortController();
    const stream = await fetch(new URL('/sse', server.url), { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const [endpoint] = await readEvents(stream, () => true);
    expect(mcp.connectionCount).toBe(1);
    controller.abort();
    await eventually(() => mcp.connectionCount === 0);
    const response = await post(new URL(endpoint!.data, server.url).toString(), initialize);
    expect(response.status).toBe(404);
  });

  it('refuses unknown and missing session ids, wrong methods and a wrong Accept', async () => {
    server = await startNode(buildServer().server, { legacySse: true });
    const unknown = await post(new URL('/messages?sessionId=nope', server.url).toString(), initialize);
    expect(unknown.status).toBe(404);
    const missing = await post(new URL('/messages', server.url).toString(), initialize);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('sessionId');
    const wrongMethod = await post(new URL('/sse', server.url).toString(), initialize);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    const wrongAccept = await fetch(new URL('/sse', server.url), { headers: { accept: 'application/json' } });
    expect(wrongAccept.status).toBe(406);
  });

  it('is off by default', async () => {
    server = await startNode(buildServer().server);
    const response = await fetch(new URL('/sse', server.url), { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(404);
  });

  it('serves custom paths', async () => {
    server = await startNode(buildServer().server, { legacySse: { ssePath: '/old/events', messagesPath: '/old/post' } });
    const controller = new AbortController();
    const stream = await fetch(new URL('/old/events', server.url), { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const [endpoint] = await readEvents(stream, () => true);
    controller.abort();
    expect(endpoint!.data).toMatch(/^\/old\/post\?sessionId=/);
  });
});
