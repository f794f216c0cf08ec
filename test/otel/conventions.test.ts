/**
 * mcpkit/otel to the letter of the MCP semantic conventions (issue 28.5), with the real SDK's
 * in-memory exporters: SERVER spans and `mcp.server.operation.duration` for notifications as well
 * as requests; `client.address` and `client.port` on HTTP server spans (the forwarded client with
 * `trustProxy`); `network.protocol.version` on Streamable HTTP spans.
 */
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/http.js';
import { instrument, type Instrumentation } from '../../src/otel.js';
import { initializeBody, post, PROTOCOL, sessionHeaders } from '../transports/http/support.js';
import { requestFrom } from '../hostile/sessions-support.js';
import { eventually } from '../support/eventually.js';
import { startReverseProxy } from '../support/reverse-proxy.js';
import { setUpSdk } from './sdk.js';
import { LEGACY, observedServer, StdioClient } from './support.js';

const sdk = setUpSdk();
let instrumentation: Instrumentation;
beforeAll(() => {
  instrumentation = instrument({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
});
afterAll(() => instrumentation.disable());

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  sdk.exporter.reset();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const HTTP = { 'mcp.protocol.version': PROTOCOL, 'network.transport': 'tcp', 'network.protocol.name': 'http', 'network.protocol.version': '1.1' };

const named = (name: string): ReadableSpan[] => sdk.spans().filter((s) => s.name === name);

describe('notifications', () => {
  it('over stdio: a SERVER span named by the method, its parent from _meta, and the duration metric', async () => {
    const client = new StdioClient(observedServer());
    cleanup.push(() => client.close());
    await client.start();
    client.write({ jsonrpc: '2.0', method: 'notifications/roots/list_changed', params: { _meta: { traceparent: TRACEPARENT } } });
    await eventually(() => named('notifications/roots/list_changed').length === 1, { deadlineMs: 10_000, message: 'the notification span ended' });
    const [initialized] = named('notifications/initialized');
    expect(initialized?.kind).toBe(SpanKind.SERVER);
    expect(initialized?.attributes).toEqual({ 'mcp.method.name': 'notifications/initialized', 'mcp.protocol.version': LEGACY, 'network.transport': 'pipe' });
    const [changed] = named('notifications/roots/list_changed');
    expect(changed?.spanContext().traceId).toBe(TRACE_ID);
    expect(changed?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    const { points } = await sdk.histogram('mcp.server.operation.duration');
    expect(points.map((p) => p.attributes)).toContainEqual({ 'mcp.method.name': 'notifications/initialized', 'mcp.protocol.version': LEGACY, 'network.transport': 'pipe' });
  });

  it('over HTTP: the session, the peer and the HTTP version', async () => {
    const listener = await listen(observedServer(), { port: 0 });
    cleanup.push(() => listener.close({ graceMs: 0 }));
    const init = await post(listener.url, initializeBody());
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await post(listener.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(sessionId))).text();
    await eventually(() => named('notifications/initialized').length === 1, { deadlineMs: 10_000, message: 'the notification span ended' });
    expect(named('notifications/initialized')[0]!.attributes).toEqual({
      'mcp.method.name': 'notifications/initialized',
      'mcp.session.id': sessionId,
      'client.address': '127.0.0.1',
      'client.port': expect.any(Number) as number,
      ...HTTP,
    });
    const { points } = await sdk.histogram('mcp.server.operation.duration');
    expect(points.map((p) => p.attributes)).toContainEqual({ 'mcp.method.name': 'notifications/initialized', ...HTTP });
  });
});

describe('HTTP server spans', () => {
  it('carry client.address, client.port and network.protocol.version', async () => {
    const listener = await listen(observedServer(), { port: 0 });
    cleanup.push(() => listener.close({ graceMs: 0 }));
    const response = await requestFrom(listener.url, { localAddress: '127.0.0.4', body: initializeBody(1) });
    expect(response.status).toBe(200);
    const [span] = named('initialize');
    expect(span?.attributes).toMatchObject({ 'client.address': '127.0.0.4', 'network.protocol.version': '1.1' });
    expect(span?.attributes['client.port']).toEqual(expect.any(Number));
    const { points } = await sdk.histogram('mcp.server.operation.duration');
    // Low cardinality: the peer is on the span, never on the metric.
    for (const point of points) expect(point.attributes['client.address']).toBeUndefined();
  });

  it('behind a trusted proxy: the forwarded client, without the proxy\'s port', async () => {
    const listener = await listen(observedServer(), { port: 0, security: { trustProxy: ['127.0.0.1'] } });
    cleanup.push(() => listener.close({ graceMs: 0 }));
    const proxy = await startReverseProxy(listener.url);
    cleanup.push(() => proxy.close());
    const response = await requestFrom(proxy.url, { localAddress: '127.0.0.5', body: initializeBody(1) });
    expect(response.status).toBe(200);
    const [span] = named('initialize');
    expect(span?.attributes['client.address']).toBe('127.0.0.5');
    expect(span?.attributes['client.port']).toBeUndefined();
  });
});
