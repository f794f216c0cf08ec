/**
 * Failures no request can be told about are logged through the server's logger with what
 * failed, and the server keeps serving: a session store that cannot touch, an event store
 * that cannot record an SSE event, a bus that cannot publish or a listener that throws.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer, MemoryNotificationBus, type BusEvent, type Logger } from '../../../src/index.js';
import { MemoryEventStore, MemorySessionStore, type SessionStore } from '../../../src/http.js';
import { ACCEPT_BOTH, eventually, messages, openSession, post, readEvents, rpc, sessionHeaders, startNode, type TestServer } from './support.js';
import { HttpSession, reporterFor, SessionRegistry } from '../../../src/transports/http/sessions.js';
import type { HttpRequest } from '../../../src/transports/http/types.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { lines, logger: { error: (message: string, error: unknown) => lines.push(`${message} | ${error instanceof Error ? error.message : String(error)}`) } };
}

function echoServer(logger: Logger): McpServer {
  const server = new McpServer({ name: 'store-failures', version: '1.0.0', logger });
  server.tool('echo', {}, () => 'ok');
  return server;
}

/** A memory session store whose touch fails, as a shared store's would during an outage. */
function failingTouchStore<T>(): SessionStore<T> {
  const inner = new MemorySessionStore<T>();
  return {
    get: (id) => inner.get(id),
    set: (id, value) => inner.set(id, value),
    delete: (id) => inner.delete(id),
    touch: () => Promise.reject(new Error('session store down')),
    size: () => inner.size(),
    values: () => inner.values(),
    onExpire: (listener) => inner.onExpire(listener),
    close: () => inner.close(),
  };
}

class FailingAppendStore extends MemoryEventStore {
  override append(...args: Parameters<MemoryEventStore['append']>): string {
    if (args[2] !== undefined) throw new Error('event store down');
    return super.append(...args);
  }
}

describe('store and bus failures', () => {
  it('a session store that cannot touch: logged with the session, and the session is served', async () => {
    // The engine's live sessions are an internal map (no sessionStore option): the registry is given the failing store here.
    const { logger, lines } = recordingLogger();
    const server = echoServer(logger);
    const registry = new SessionRegistry(failingTouchStore<HttpSession>(), 10, 10, undefined, reporterFor(logger));
    const request = { method: 'POST', path: '/mcp', query: '', headers: {}, remoteAddress: '127.0.0.1' } as unknown as HttpRequest;
    const session = await registry.open('streamable', server, request, undefined);
    if (!(session instanceof HttpSession)) throw new Error(`not opened: ${session}`);
    registry.touch(session);
    await eventually(() => lines.length > 0);
    expect(lines[0]).toBe(`mcpkit: touching session ${session.id} in the session store failed (it may expire early) | session store down`);
    expect(registry.get(session.id, undefined)).toBe(session);
    await registry.closeAll('done');
  });

  it('an event store that cannot record: the event is still sent live and the failure is logged', async () => {
    const { logger, lines } = recordingLogger();
    const http = await startNode(echoServer(logger), { sessions: { eventStore: new FailingAppendStore() }, responseMode: 'sse' });
    servers.push(http);
    const session = await openSession(http.url);
    const response = await post(http.url, rpc(2, 'tools/call', { name: 'echo', arguments: {} }), { ...sessionHeaders(session), accept: ACCEPT_BOTH });
    const sent = messages(await readEvents(response));
    expect(sent).toContainEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'ok' }] } });
    await eventually(() => lines.length > 0);
    expect(lines[0]).toBe(`mcpkit: recording an SSE event of session ${session} in the event store failed (it was sent live but cannot be replayed) | event store down`);
  });

  it('a bus that cannot publish list_changed: logged, naming the list', async () => {
    const { logger, lines } = recordingLogger();
    const bus = { publish: (_event: BusEvent) => Promise.reject(new Error('bus down')), subscribe: () => () => undefined };
    const server = new McpServer({ name: 'bus', version: '1.0.0', logger, bus });
    server.tool('late', {}, () => 'ok');
    await eventually(() => lines.length > 0);
    expect(lines).toEqual(['mcpkit: publishing tools/list_changed on the notification bus failed | bus down']);
  });

  it('a bus listener that throws is reported and the other listeners still hear the event', () => {
    const reported: unknown[] = [];
    const bus = new MemoryNotificationBus({ onListenerError: (error) => reported.push(error) });
    const heard: BusEvent[] = [];
    bus.subscribe(() => {
      throw new Error('listener broke');
    });
    bus.subscribe((event) => heard.push(event));
    bus.publish({ type: 'resource_updated', uri: 'x://1' });
    expect(heard).toEqual([{ type: 'resource_updated', uri: 'x://1' }]);
    expect(reported).toEqual([new Error('listener broke')]);
  });
});
