/**
 * mcpkit/otel modes and switches: propagation_only (context flows, no spans),
 * off and the environment, captured arguments, disable(), and a logger whose
 * records carry the request and trace they belong to.
 */
import { propagation, trace, context } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { correlatedLogger, instrument, type InstrumentOptions } from '../../src/otel.js';
import { modeFromEnvironment } from '../../src/otel/instrument.js';
import type { McpServer } from '../../src/index.js';
import { setUpSdk } from './sdk.js';
import { LEGACY, observedServer, StdioClient, type Json } from './support.js';

const sdk = setUpSdk();
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  sdk.exporter.reset();
});

function observe(options: InstrumentOptions): void {
  const instrumentation = instrument({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, ...options });
  cleanup.push(() => instrumentation.disable());
}

/** What the handler sees: its active span and baggage. */
function probing(server: McpServer): McpServer {
  server.tool('probe', { input: { type: 'object', properties: {} } }, () => {
    const span = trace.getSpanContext(context.active());
    const baggage = propagation.getBaggage(context.active())?.getEntry('user')?.value;
    return JSON.stringify({ traceId: span?.traceId, spanId: span?.spanId, baggage });
  });
  return server;
}

async function stdio(server: McpServer = probing(observedServer())): Promise<StdioClient> {
  const client = new StdioClient(server);
  cleanup.push(() => client.close());
  await client.start();
  sdk.exporter.reset();
  return client;
}

/** Spans of requests (the client's notifications/initialized gets its own span, which may end after start()). */
const requestSpans = () => sdk.spans().filter((s) => !s.name.startsWith('notifications/'));

const text = (response: Json): string => (((response['result'] as Json)['content'] as { text: string }[])[0]?.text) ?? '';

describe("mode 'propagation_only'", () => {
  it('makes no spans; the handler runs in the context from _meta (trace and baggage)', async () => {
    observe({ mode: 'propagation_only' });
    const client = await stdio();
    const response = await client.request(1, 'tools/call', { name: 'probe', arguments: {}, _meta: { traceparent: TRACEPARENT, baggage: 'user=ada' } });
    expect(JSON.parse(text(response))).toEqual({ traceId: TRACE_ID, spanId: CLIENT_SPAN, baggage: 'ada' });
    expect(sdk.spans()).toEqual([]);
  });

  it('passes the context on in the _meta of a server→client request', async () => {
    observe({ mode: 'propagation_only' });
    const client = await stdio();
    client.write({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta: { traceparent: TRACEPARENT, baggage: 'user=ada' } } });
    const ask = await client.next();
    expect((ask['params'] as Json)['_meta']).toEqual({ traceparent: TRACEPARENT, baggage: 'user=ada' });
    client.write({ jsonrpc: '2.0', id: ask['id'], result: { action: 'decline' } });
    await client.next();
    expect(sdk.spans()).toEqual([]);
  });
});

describe('switching telemetry off', () => {
  it("mode 'off' subscribes nothing", async () => {
    const instrumentation = instrument({ mode: 'off', tracerProvider: sdk.tracerProvider });
    expect(instrumentation.mode).toBe('off');
    const client = await stdio();
    await client.request(1, 'tools/call', { name: 'echo', arguments: { text: 'x' }, _meta: { traceparent: TRACEPARENT } });
    expect(sdk.spans()).toEqual([]);
  });

  it('OTEL_SDK_DISABLED=true and MCPKIT_TELEMETRY win over the option', () => {
    expect(modeFromEnvironment('native', { OTEL_SDK_DISABLED: 'true' })).toBe('off');
    expect(modeFromEnvironment('native', { OTEL_SDK_DISABLED: 'TRUE', MCPKIT_TELEMETRY: 'native' })).toBe('off');
    expect(modeFromEnvironment('native', { MCPKIT_TELEMETRY: 'off' })).toBe('off');
    expect(modeFromEnvironment('native', { MCPKIT_TELEMETRY: 'propagation_only' })).toBe('propagation_only');
    expect(modeFromEnvironment('propagation_only', { MCPKIT_TELEMETRY: 'bogus', OTEL_SDK_DISABLED: 'false' })).toBe('propagation_only');
    expect(modeFromEnvironment('native', undefined)).toBe('native');
  });

  it('instrument() reads the environment', async () => {
    vi.stubEnv('MCPKIT_TELEMETRY', 'off');
    cleanup.push(() => vi.unstubAllEnvs());
    const instrumentation = instrument({ tracerProvider: sdk.tracerProvider });
    expect(instrumentation.mode).toBe('off');
    const client = await stdio();
    await client.request(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(sdk.spans()).toEqual([]);
  });

  it('disable() stops observing', async () => {
    const instrumentation = instrument({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
    const client = await stdio();
    await client.request(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(requestSpans().map((s) => s.name)).toEqual(['tools/call echo']);
    instrumentation.disable();
    await client.request(2, 'tools/call', { name: 'echo', arguments: { text: 'y' } });
    expect(requestSpans()).toHaveLength(1);
  });
});

describe('captureArguments', () => {
  it('off by default; when on, tool arguments and results are on the span as JSON', async () => {
    observe({ captureArguments: true });
    const client = await stdio();
    await client.request(1, 'tools/call', { name: 'echo', arguments: { text: 'secret' } });
    const [span] = requestSpans();
    expect(span!.attributes['gen_ai.tool.call.arguments']).toBe('{"text":"secret"}');
    expect(span!.attributes['gen_ai.tool.call.result']).toBe('{"content":[{"type":"text","text":"echo: secret"}]}');
  });

  it('is off unless asked for', async () => {
    observe({});
    const client = await stdio();
    await client.request(1, 'tools/call', { name: 'echo', arguments: { text: 'secret' } });
    expect(Object.keys(sdk.spans()[0]!.attributes).filter((k) => k.startsWith('gen_ai.tool.call'))).toEqual([]);
  });
});

describe('correlatedLogger', () => {
  it("the server's logger gets the request's method, id and trace ids with what mcpkit logs", async () => {
    observe({});
    const error = vi.fn();
    const client = await stdio(observedServer(correlatedLogger({ error })));
    const response = await client.request(4, 'prompts/get', { name: 'broken', _meta: { traceparent: TRACEPARENT } });
    expect(response['error']).toEqual({ code: -32603, message: 'Internal error' });
    const span = sdk.spans().find((s) => s.name === 'prompts/get broken')!;
    expect(error).toHaveBeenCalledWith('mcpkit: prompts/get failed', expect.any(Error), {
      'mcp.method.name': 'prompts/get',
      'jsonrpc.request.id': '4',
      trace_id: TRACE_ID,
      span_id: span.spanContext().spanId,
    });
  });

  it('outside a request the record is left out', () => {
    const info = vi.fn();
    correlatedLogger({ info }).info?.('starting', 1);
    expect(info).toHaveBeenCalledWith('starting', 1);
  });
});

it('the protocol version a legacy session negotiated is on its spans', async () => {
  observe({});
  const client = await stdio();
  await client.request(1, 'ping');
  expect(sdk.spans().find((s) => s.name === 'ping')?.attributes['mcp.protocol.version']).toBe(LEGACY);
});
