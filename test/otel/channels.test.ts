/**
 * The diagnostics_channel contract (docs/observability.md): channel names and
 * message fields for inbound requests, server→client requests (legacy and
 * 2026-07-28 MRTR) and sessions, on stdio and HTTP.
 */
import { channel, tracingChannel, type TracingChannelSubscribers } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../../src/http.js';
import { traceRequest, type ClientRequestMessage, type RequestMessage, type SessionEndMessage, type SessionStartMessage } from '../../src/protocol/observability/channels.js';
import { McpProtocolHandler } from '../../src/protocol/dispatch/protocol-handler.js';
import { modernRequest } from '../fixtures/modern-http.mjs';
import { eventually, initializeBody, post, PROTOCOL, sessionHeaders } from '../transports/http/support.js';
import { LEGACY, observedServer, StdioClient, type Json } from './support.js';

interface Recorded<T> {
  events: { name: string; message: T; result?: unknown; error?: unknown }[];
  stop: () => void;
}

function record<T extends object>(name: string): Recorded<T> {
  const events: Recorded<T>['events'] = [];
  const on = (event: string) => (message: T) => {
    const m = message as T & { result?: unknown; error?: unknown };
    events.push({ name: event, message, result: m.result, error: m.error });
  };
  const subscribers: TracingChannelSubscribers<T> = { start: on('start'), end: on('end'), asyncStart: on('asyncStart'), asyncEnd: on('asyncEnd'), error: on('error') };
  tracingChannel<unknown, T>(name).subscribe(subscribers);
  return { events, stop: () => tracingChannel<unknown, T>(name).unsubscribe(subscribers) };
}

function sessions(): { starts: SessionStartMessage[]; ends: SessionEndMessage[]; stop: () => void } {
  const starts: SessionStartMessage[] = [];
  const ends: SessionEndMessage[] = [];
  const onStart = (m: unknown): void => void starts.push(m as SessionStartMessage);
  const onEnd = (m: unknown): void => void ends.push(m as SessionEndMessage);
  channel('mcpkit:session:start').subscribe(onStart);
  channel('mcpkit:session:end').subscribe(onEnd);
  return { starts, ends, stop: () => (channel('mcpkit:session:start').unsubscribe(onStart), channel('mcpkit:session:end').unsubscribe(onEnd)) };
}

const cleanup: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('mcpkit:request', () => {
  it('stdio: one start and one asyncEnd per request, with method, target, id, version, transport, _meta and the response written', async () => {
    const requests = record<RequestMessage>('mcpkit:request');
    cleanup.push(requests.stop);
    const client = new StdioClient(observedServer());
    cleanup.push(() => client.close());
    await client.start();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const response = await client.request(7, 'tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: { traceparent } });

    const call = requests.events.filter((e) => e.message.method === 'tools/call');
    expect(call.map((e) => e.name)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    const message = call[0]!.message;
    expect(message).toMatchObject({ method: 'tools/call', id: 7, target: 'echo', sessionId: undefined, protocolVersion: LEGACY, transport: 'stdio', meta: { traceparent } });
    expect(message.params).toEqual({ name: 'echo', arguments: { text: 'hi' }, _meta: { traceparent } });
    expect(call[3]!.result).toEqual(response);

    const init = requests.events.find((e) => e.message.method === 'initialize' && e.name === 'asyncEnd')!;
    expect(init.message).toMatchObject({ id: 0, target: undefined, protocolVersion: LEGACY, transport: 'stdio' });
  });

  it('a protocol error, a tool error, an unknown method: the result is the error response or the isError result', async () => {
    const requests = record<RequestMessage>('mcpkit:request');
    cleanup.push(requests.stop);
    const client = new StdioClient(observedServer());
    cleanup.push(() => client.close());
    await client.start();
    await client.request(1, 'tools/call', { name: 'strict', arguments: {} });
    await client.request(2, 'tools/call', { name: 'refuse', arguments: {} });
    await client.request(3, 'no/such/method');
    const ends = requests.events.filter((e) => e.name === 'asyncEnd' && e.message.method !== 'initialize');
    expect(ends.map((e) => e.result)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32050, message: 'Custom failure' } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'try a smaller number' }], isError: true } },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found: no/such/method' } },
    ]);
    expect(ends.map((e) => e.message.target)).toEqual(['strict', 'refuse', undefined]);
  });

  it('HTTP: the session id, transport http, prompt and resource targets', async () => {
    const requests = record<RequestMessage>('mcpkit:request');
    cleanup.push(requests.stop);
    const listener = await listen(observedServer(), { port: 0 });
    cleanup.push(() => listener.close({ graceMs: 0 }));
    const init = await post(listener.url, initializeBody());
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await post(listener.url, { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'greet' } }, sessionHeaders(sessionId))).text();
    await (await post(listener.url, { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'config://app' } }, sessionHeaders(sessionId))).text();
    const starts = requests.events.filter((e) => e.name === 'start').map((e) => e.message);
    expect(starts.map((m) => [m.method, m.target, m.sessionId, m.transport, m.protocolVersion])).toEqual([
      ['initialize', undefined, sessionId, 'http', PROTOCOL],
      ['prompts/get', 'greet', sessionId, 'http', PROTOCOL],
      ['resources/read', 'config://app', sessionId, 'http', PROTOCOL],
    ]);
  });

  it('a synchronous answer is traced within the call and handed back as it is; a waiting one once it settles; a throw as error + end', async () => {
    const requests = record<RequestMessage>('mcpkit:request');
    cleanup.push(requests.stop);
    const server = observedServer();
    server.tool('later', { input: { type: 'object', properties: {} } }, async () => 'done');
    const handler = new McpProtocolHandler({ tools: server.tools, resources: server.resources, prompts: server.prompts, getMetadata: () => server.getMetadata() });
    // Traced, a synchronous tool still answers in the call (the transports' path for an answer ready at once).
    const answer = handler.handleMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'now' } } });
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toStrictEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'echo: now' }] } });
    expect(requests.events.map((e) => e.name)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(requests.events[2]!.result).toBe(answer);

    requests.events.length = 0;
    const waiting = handler.handleMessage({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'later', arguments: {} } });
    expect(waiting).toBeInstanceOf(Promise);
    expect(requests.events.map((e) => e.name)).toEqual(['start', 'end']);
    const settled = await waiting;
    expect(requests.events.map((e) => e.name)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(requests.events[3]!.result).toBe(settled);

    requests.events.length = 0;
    const message = { method: 'x', id: 3, params: undefined, sessionId: undefined, protocolVersion: undefined, transport: undefined, meta: undefined, target: undefined } as RequestMessage;
    const boom = new Error('dispatch failed');
    expect(() =>
      traceRequest(message, () => {
        throw boom;
      }),
    ).toThrow(boom);
    expect(requests.events.map((e) => [e.name, e.error])).toEqual([
      ['start', undefined],
      ['error', boom],
      ['end', boom],
    ]);
    requests.events.length = 0;
    await expect(traceRequest({ ...message, id: 4 }, () => Promise.reject(boom))).rejects.toBe(boom);
    expect(requests.events.map((e) => e.name)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  });

  it('nothing is published, and nothing built, without a subscriber', async () => {
    expect(tracingChannel('mcpkit:request').start.hasSubscribers).toBe(false);
    const client = new StdioClient(observedServer());
    cleanup.push(() => client.close());
    await client.start();
    expect(await client.request(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } })).toMatchObject({ result: { content: [{ text: 'echo: x' }] } });
  });
});

describe('mcpkit:client-request', () => {
  it('legacy: the elicitation sent on the session, with the params a start subscriber put in, and the answer', async () => {
    const asks = record<ClientRequestMessage>('mcpkit:client-request');
    cleanup.push(asks.stop);
    const addMeta = (message: unknown): void => {
      const m = message as ClientRequestMessage;
      m.params = { ...m.params, _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } };
    };
    channel('tracing:mcpkit:client-request:start').subscribe(addMeta);
    cleanup.push(() => void channel('tracing:mcpkit:client-request:start').unsubscribe(addMeta));
    const client = new StdioClient(observedServer());
    cleanup.push(() => client.close());
    await client.start();
    client.write({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const ask = await client.next();
    expect(ask).toMatchObject({ method: 'elicitation/create', params: { message: 'Name?', _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } } });
    client.write({ jsonrpc: '2.0', id: ask['id'], result: { action: 'accept', content: { name: 'Ada' } } });
    expect(await client.next()).toMatchObject({ id: 9, result: { content: [{ text: 'Hi Ada' }] } });

    expect(asks.events.map((e) => e.name)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(asks.events[0]!.message).toMatchObject({ method: 'elicitation/create', era: 'legacy', requestId: 9, requestMethod: 'tools/call', sessionId: undefined, protocolVersion: LEGACY });
    expect(asks.events[3]!.result).toEqual({ action: 'accept', content: { name: 'Ada' } });
  });

  it('2026-07-28: the first round ends with InputRequiredSignal (the input request went out), the retry resolves with the answer', async () => {
    const asks = record<ClientRequestMessage>('mcpkit:client-request');
    cleanup.push(asks.stop);
    const listener = await listen(observedServer(), { port: 0 });
    cleanup.push(() => listener.close({ graceMs: 0 }));
    const first = await modernRequest(listener.url, 1, 'tools/call', { name: 'ask', arguments: {} });
    const result = (first.messages[0] as Json)['result'] as Json;
    expect(result['resultType']).toBe('input_required');
    expect(asks.events.map((e) => e.name)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(asks.events[0]!.message).toMatchObject({ method: 'elicitation/create', era: 'modern', requestId: 1, requestMethod: 'tools/call', protocolVersion: '2026-07-28' });
    expect((asks.events[2]!.error as Error).name).toBe('InputRequiredSignal');

    asks.events.length = 0;
    const retry = await modernRequest(listener.url, 2, 'tools/call', {
      name: 'ask',
      arguments: {},
      requestState: result['requestState'],
      inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(retry.messages[0]).toMatchObject({ result: { content: [{ text: 'Hi Ada' }] } });
    expect(asks.events.map((e) => e.name)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(asks.events[3]!.result).toEqual({ action: 'accept', content: { name: 'Ada' } });
  });
});

describe('mcpkit:session:start / end', () => {
  it('stdio: start when the transport connects, end with the negotiated version when it closes', async () => {
    const seen = sessions();
    cleanup.push(seen.stop);
    const client = new StdioClient(observedServer());
    await client.start();
    expect(seen.starts).toEqual([{ connection: expect.any(Object), sessionId: undefined, transport: 'stdio' }]);
    await client.close();
    expect(seen.ends).toEqual([{ connection: seen.starts[0]!.connection, sessionId: undefined, transport: 'stdio', protocolVersion: LEGACY, reason: 'Server stopped' }]);
  });

  it('HTTP: one start per session, one end when the client deletes it; the stateless endpoint is no session', async () => {
    const seen = sessions();
    cleanup.push(seen.stop);
    const listener = await listen(observedServer(), { port: 0 });
    cleanup.push(() => listener.close({ graceMs: 0 }));
    await modernRequest(listener.url, 1, 'tools/list');
    const init = await post(listener.url, initializeBody());
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    expect(seen.starts).toEqual([{ connection: expect.any(Object), sessionId, transport: 'http' }]);
    const deleted = await fetch(listener.url, { method: 'DELETE', headers: sessionHeaders(sessionId) });
    await deleted.text();
    await eventually(() => seen.ends.length === 1);
    expect(seen.ends).toEqual([{ connection: seen.starts[0]!.connection, sessionId, transport: 'http', protocolVersion: PROTOCOL, reason: 'session ended by the client' }]);
  });
});
