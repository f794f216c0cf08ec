/**
 * mcpkit/otel in native mode, checked with the SDK's in-memory exporters:
 * span names, kinds, attributes, status and parents per the MCP semantic
 * conventions, on stdio and HTTP, legacy and 2026-07-28.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHandler, listen } from '../../src/http.js';
import type { McpServer } from '../../src/index.js';
import { instrument, type Instrumentation } from '../../src/otel.js';
import { modernRequest } from '../fixtures/modern-http.mjs';
import { initializeBody, post, PROTOCOL, sessionHeaders } from '../transports/http/support.js';
import { setUpSdk } from './sdk.js';
import { LEGACY, observedServer, StdioClient, type Json } from './support.js';

const sdk = setUpSdk();
let instrumentation: Instrumentation;
beforeAll(() => {
  instrumentation = instrument({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
});
afterAll(() => instrumentation.disable());

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
  sdk.exporter.reset();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;
const STDIO = { 'mcp.protocol.version': LEGACY, 'network.transport': 'pipe' };

function traced(): McpServer {
  const server = observedServer();
  // Work the handler traces itself: a child of the MCP span when the context flows.
  server.tool('nested', { input: { type: 'object', properties: {} } }, () => trace.getTracer('app').startActiveSpan('inner work', (span) => (span.end(), 'done')));
  return server;
}

async function stdio(): Promise<StdioClient> {
  const client = new StdioClient(traced());
  cleanup.push(() => client.close());
  await client.start();
  sdk.exporter.reset();
  return client;
}

const named = (name: string): ReadableSpan => {
  const found = sdk.spans().filter((s) => s.name === name);
  expect(found, `spans named ${name}: ${sdk.spans().map((s) => s.name).join(', ')}`).toHaveLength(1);
  return found[0]!;
};

describe('SERVER spans over stdio', () => {
  it('tools/call: name, kind, attributes, status, and the parent from _meta.traceparent', async () => {
    const client = await stdio();
    await client.request(7, 'tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: { traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' } });
    const span = named('tools/call echo');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool', 'jsonrpc.request.id': '7', ...STDIO });
    expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: CLIENT_SPAN, isRemote: true, traceState: expect.anything() });
    expect(span.links).toEqual([]);
  });

  it('a tool error: error.type tool_error and status ERROR', async () => {
    const client = await stdio();
    await client.request(2, 'tools/call', { name: 'refuse', arguments: {} });
    const span = named('tools/call refuse');
    expect(span.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'refuse', 'gen_ai.operation.name': 'execute_tool', 'jsonrpc.request.id': '2', 'error.type': 'tool_error', ...STDIO });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR });
  });

  it('a protocol error: error.type and rpc.response.status_code are the JSON-RPC code, the status message is the error message', async () => {
    const client = await stdio();
    await client.request(3, 'tools/call', { name: 'strict', arguments: {} });
    await client.request(4, 'tools/call', { name: 'nope', arguments: {} });
    await client.request(5, 'no/such');
    expect(named('tools/call strict').attributes).toMatchObject({ 'error.type': '-32050', 'rpc.response.status_code': '-32050' });
    expect(named('tools/call strict').status).toEqual({ code: SpanStatusCode.ERROR, message: 'Custom failure' });
    expect(named('tools/call nope').attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602', 'gen_ai.tool.name': 'nope' });
    expect(named('tools/call nope').status.code).toBe(SpanStatusCode.ERROR);
    expect(named('no/such').attributes).toEqual({ 'mcp.method.name': 'no/such', 'jsonrpc.request.id': '5', 'error.type': '-32601', 'rpc.response.status_code': '-32601', ...STDIO });
  });

  it('prompts/get and resources/read (the URI is an attribute, never in the name)', async () => {
    const client = await stdio();
    await client.request(1, 'prompts/get', { name: 'greet' });
    await client.request(2, 'resources/read', { uri: 'config://app' });
    expect(named('prompts/get greet').attributes).toEqual({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet', 'jsonrpc.request.id': '1', ...STDIO });
    expect(named('resources/read').attributes).toEqual({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'config://app', 'jsonrpc.request.id': '2', ...STDIO });
    expect(named('resources/read').kind).toBe(SpanKind.SERVER);
  });

  it('initialize carries the negotiated version; without _meta the span is a root', async () => {
    const client = new StdioClient(observedServer());
    cleanup.push(() => client.close());
    await client.start();
    const span = named('initialize');
    expect(span.attributes).toEqual({ 'mcp.method.name': 'initialize', 'jsonrpc.request.id': '0', ...STDIO });
    expect(span.parentSpanContext).toBeUndefined();
  });

  it('spans the handler starts are children of the MCP span', async () => {
    const client = await stdio();
    await client.request(1, 'tools/call', { name: 'nested', arguments: {}, _meta: { traceparent: TRACEPARENT } });
    const server = named('tools/call nested');
    expect(named('inner work').parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(named('inner work').spanContext().traceId).toBe(TRACE_ID);
  });

  it('legacy elicitation: a CLIENT span under the SERVER span, its context in the request _meta', async () => {
    const client = await stdio();
    client.write({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta: { traceparent: TRACEPARENT } } });
    const ask = await client.next();
    client.write({ jsonrpc: '2.0', id: ask['id'], result: { action: 'accept', content: { name: 'Ada' } } });
    expect(await client.next()).toMatchObject({ id: 9, result: { content: [{ text: 'Hi Ada' }] } });

    const server = named('tools/call ask');
    const elicit = named('elicitation/create');
    expect(elicit.kind).toBe(SpanKind.CLIENT);
    expect(elicit.attributes).toEqual({ 'mcp.method.name': 'elicitation/create', ...STDIO });
    expect(elicit.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(elicit.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    const meta = (ask['params'] as Json)['_meta'] as Json;
    expect(meta).toEqual({ traceparent: `00-${TRACE_ID}-${elicit.spanContext().spanId}-01` });
  });

  it('a client that answers the elicitation with an error: the CLIENT span carries its code', async () => {
    const client = await stdio();
    client.write({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const ask = await client.next();
    client.write({ jsonrpc: '2.0', id: ask['id'], error: { code: -32600, message: 'not now' } });
    await client.next();
    expect(named('elicitation/create').attributes).toMatchObject({ 'error.type': '-32600', 'rpc.response.status_code': '-32600' });
    expect(named('elicitation/create').status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('SERVER spans over HTTP', () => {
  it('a legacy session: mcp.session.id, tcp and http', async () => {
    const listener = await listen(observedServer(), { port: 0 });
    cleanup.push(() => listener.close({ graceMs: 0 }));
    const init = await post(listener.url, initializeBody());
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await post(listener.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' }, _meta: { traceparent: TRACEPARENT } } }, sessionHeaders(sessionId))).text();
    const span = named('tools/call echo');
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '1',
      'mcp.session.id': sessionId,
      'mcp.protocol.version': PROTOCOL,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      // Recommended on HTTP by the conventions (issue 28.5).
      'network.protocol.version': '1.1',
      'client.address': '127.0.0.1',
      'client.port': expect.any(Number) as number,
    });
    expect(span.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
  });

  it('the ambient HTTP server span is linked when _meta has the parent, and is the parent otherwise', async () => {
    const tracer = trace.getTracer('http-instrumentation');
    const handler = createNodeHandler(observedServer());
    // What an HTTP instrumentation does: the request handler runs inside its SERVER span.
    const server = createServer((req, res) =>
      tracer.startActiveSpan('POST', { kind: SpanKind.SERVER }, (span) => {
        res.on('close', () => span.end());
        handler(req, res);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    await modernRequest(url, 1, 'tools/call', { name: 'echo', arguments: { text: 'a' } }, { metaExtra: { traceparent: TRACEPARENT } });
    const linked = named('tools/call echo');
    const http = named('POST');
    expect(linked.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(linked.links.map((l) => l.context.spanId)).toEqual([http.spanContext().spanId]);
    expect(linked.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '1',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      // Recommended on HTTP by the conventions (issue 28.5).
      'network.protocol.version': '1.1',
      'client.address': '127.0.0.1',
      'client.port': expect.any(Number) as number,
    });

    sdk.exporter.reset();
    await modernRequest(url, 2, 'prompts/get', { name: 'greet' });
    const child = named('prompts/get greet');
    expect(child.parentSpanContext?.spanId).toBe(named('POST').spanContext().spanId);
    expect(child.links).toEqual([]);
  });

  it('2026-07-28 elicitation (MRTR): the input request carries the CLIENT span context; the retry is a new SERVER span', async () => {
    const listener = await listen(observedServer(), { port: 0 });
    cleanup.push(() => listener.close({ graceMs: 0 }));
    const first = await modernRequest(listener.url, 1, 'tools/call', { name: 'ask', arguments: {} }, { metaExtra: { traceparent: TRACEPARENT } });
    const result = (first.messages[0] as Json)['result'] as Json;
    expect(result['resultType']).toBe('input_required');
    const round1 = named('tools/call ask');
    const elicit = named('elicitation/create');
    // Handing the question to the client is not a failure.
    expect(round1.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(elicit.kind).toBe(SpanKind.CLIENT);
    expect(elicit.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(elicit.attributes).toEqual({ 'mcp.method.name': 'elicitation/create', 'mcp.protocol.version': '2026-07-28', 'network.transport': 'tcp', 'network.protocol.name': 'http' });
    expect(elicit.parentSpanContext?.spanId).toBe(round1.spanContext().spanId);
    const inputRequest = (result['inputRequests'] as Record<string, Json>)['user_name']!;
    expect((inputRequest['params'] as Json)['_meta']).toEqual({ traceparent: `00-${TRACE_ID}-${elicit.spanContext().spanId}-01` });

    sdk.exporter.reset();
    const retry = await modernRequest(
      listener.url,
      2,
      'tools/call',
      { name: 'ask', arguments: {}, requestState: result['requestState'], inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } },
      { metaExtra: { traceparent: TRACEPARENT } },
    );
    expect(retry.messages[0]).toMatchObject({ result: { content: [{ text: 'Hi Ada' }] } });
    expect(named('tools/call ask').attributes).toMatchObject({ 'jsonrpc.request.id': '2' });
    expect(named('tools/call ask').parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(named('elicitation/create').parentSpanContext?.spanId).toBe(named('tools/call ask').spanContext().spanId);
  });
});

describe('metrics', () => {
  it('mcp.server.operation.duration: the advised buckets, low-cardinality attributes only', async () => {
    const client = await stdio();
    await client.request(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
    await client.request(2, 'tools/call', { name: 'refuse', arguments: {} });
    await client.request(3, 'prompts/get', { name: 'nope' });
    const { boundaries, points } = await sdk.histogram('mcp.server.operation.duration');
    expect(boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    const attributes = points.map((p) => p.attributes);
    expect(attributes).toContainEqual({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool', ...STDIO });
    expect(attributes).toContainEqual({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'refuse', 'gen_ai.operation.name': 'execute_tool', 'error.type': 'tool_error', ...STDIO });
    expect(attributes).toContainEqual({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'nope', 'error.type': '-32602', 'rpc.response.status_code': '-32602', ...STDIO });
    for (const point of points) expect(point.value.count).toBeGreaterThan(0);
  });

  it('mcp.server.session.duration: one record when an HTTP session ends', async () => {
    const HTTP = { 'mcp.protocol.version': PROTOCOL, 'network.transport': 'tcp', 'network.protocol.name': 'http' };
    const countOf = (points: Awaited<ReturnType<typeof sdk.histogram>>['points']): number =>
      points.find((p) => JSON.stringify(p.attributes) === JSON.stringify(HTTP))?.value.count ?? 0;
    const before = countOf((await sdk.histogram('mcp.server.session.duration')).points);
    const listener = await listen(observedServer(), { port: 0 });
    const init = await post(listener.url, initializeBody());
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await fetch(listener.url, { method: 'DELETE', headers: sessionHeaders(sessionId) })).text();
    await listener.close({ graceMs: 0 });
    const { boundaries, points } = await sdk.histogram('mcp.server.session.duration');
    expect(boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    expect(points.map((p) => p.attributes)).toContainEqual(HTTP);
    expect(countOf(points)).toBe(before + 1);
  });
});
