/**
 * Trace context from mcpkit/client into `_meta`: a caller's traceparent wins, nothing is added
 * when nobody instruments, propagation_only injects without spans, an official SDK v2 server
 * receives it, and a call through the gateway is one trace: SERVER (gateway) → CLIENT (its
 * upstream call) → SERVER (upstream).
 */
import { createMcpHandler, McpServer as SdkServer } from '@modelcontextprotocol/server';
import { SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAfterEach, serveHttp } from '../support/cleanup.js';
import { z } from 'zod';
import { Client, StreamableHttpTransport } from '../../src/client.js';
import { createGateway } from '../../src/gateway.js';
import { McpServer } from '../../src/index.js';
import { instrument } from '../../src/otel.js';
import { listenFetch } from '../support/fetch-on-node.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { setUpSdk } from './sdk.js';
import type { Json } from './support.js';

const sdk = setUpSdk();
// Registered before the cleanup hook, so it runs after it (after-hooks run newest first).
afterEach(() => sdk.exporter.reset());
const cleanup = cleanupAfterEach();

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const textOf = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

function instrumented(mode?: 'propagation_only'): void {
  const instrumentation = instrument({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, ...(mode === undefined ? {} : { mode }) });
  cleanup.push(() => instrumentation.disable());
}

/** A mcpkit server whose `meta` tool answers with the `_meta` it received. */
function metaServer(name = 'upstream'): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  server.tool('meta', { input: { type: 'object', properties: {} } }, (_args, ctx) => JSON.stringify(ctx.meta ?? {}));
  return server;
}

async function clientOf(url: string, version: string): Promise<Client> {
  const client = new Client({ protocolVersion: version as typeof LEGACY });
  await client.connect(new StreamableHttpTransport(url));
  cleanup.push(() => client.close());
  return client;
}

const metaOf = async (client: Client, options?: Parameters<Client['callTool']>[2]): Promise<Json> => JSON.parse(textOf(await client.callTool('meta', {}, options))) as Json;

describe.each([LEGACY, MODERN])('_meta trace context, %s', (version) => {
  it('not instrumented: no spans, no traceparent in _meta', async () => {
    const client = await clientOf((await serveHttp(cleanup, metaServer())).url, version);
    const meta = await metaOf(client);
    expect(meta['traceparent']).toBeUndefined();
    expect(meta['tracestate']).toBeUndefined();
    expect(sdk.spans()).toEqual([]);
  });

  it('a caller traceparent in params._meta or RequestOptions.meta is sent as given, and the CLIENT span still exists', async () => {
    instrumented();
    const client = await clientOf((await serveHttp(cleanup, metaServer())).url, version);
    sdk.exporter.reset();
    const raw = (await client.request('tools/call', { name: 'meta', arguments: {}, _meta: { traceparent: TRACEPARENT, tracestate: 'a=1' } })) as { content: unknown[] };
    expect(JSON.parse(textOf(raw))).toMatchObject({ traceparent: TRACEPARENT, tracestate: 'a=1' });
    const viaOptions = await metaOf(client, { meta: { traceparent: TRACEPARENT } });
    expect(viaOptions['traceparent']).toBe(TRACEPARENT);
    expect(viaOptions['tracestate']).toBeUndefined();
    expect(sdk.spans().filter((s) => s.kind === SpanKind.CLIENT)).toHaveLength(2);
  });

  it('propagation_only: the active context goes into _meta, no span is made', async () => {
    instrumented('propagation_only');
    const client = await clientOf((await serveHttp(cleanup, metaServer())).url, version);
    const meta = await trace.getTracer('app').startActiveSpan('caller', async (caller) => {
      try {
        return await metaOf(client);
      } finally {
        caller.end();
      }
    });
    const caller = sdk.spans().find((s) => s.name === 'caller')!;
    expect(meta['traceparent']).toBe(`00-${caller.spanContext().traceId}-${caller.spanContext().spanId}-01`);
    expect(sdk.spans().map((s) => s.name)).toEqual(['caller']);
  });

  it('an official SDK v2 server receives the CLIENT span as traceparent in _meta', async () => {
    instrumented();
    const got: unknown[] = [];
    const handler = createMcpHandler(() => {
      const mcp = new SdkServer({ name: 'sdk-v2', version: '2.0.0' });
      mcp.registerTool('add', { description: 'a + b', inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }, ctx) => {
        got.push(ctx.mcpReq._meta);
        return { content: [{ type: 'text', text: String(a + b) }] };
      });
      return mcp;
    });
    const server = await listenFetch(handler);
    cleanup.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const client = await clientOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, version);
    expect(textOf(await client.callTool('add', { a: 2, b: 3 }))).toBe('5');
    const span = sdk.spans().find((s) => s.name === 'tools/call add' && s.kind === SpanKind.CLIENT)!;
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ traceparent: `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01` });
  });

  it('through the gateway: SERVER (gateway) → CLIENT (upstream call) → SERVER (upstream), one trace', async () => {
    instrumented();
    const upstreamUrl = (await serveHttp(cleanup, metaServer())).url;
    const gateway = createGateway({ mcpServers: { up: { url: upstreamUrl } } }, { proxy: { onStderr: () => undefined } });
    cleanup.push(() => gateway.close());
    expect(await gateway.ready()).toEqual([]);
    const client = await clientOf((await serveHttp(cleanup, gateway.server)).url, version);
    sdk.exporter.reset();
    const meta = JSON.parse(textOf(await client.callTool('up_meta', {}))) as Json;
    const named = (name: string, kind: SpanKind): ReadableSpan => {
      const found = sdk.spans().filter((s) => s.name === name && s.kind === kind);
      expect(found, `${SpanKind[kind]} ${name} among ${sdk.spans().map((s) => `${SpanKind[s.kind]} ${s.name}`).join(', ')}`).toHaveLength(1);
      return found[0]!;
    };
    const downstream = named('tools/call up_meta', SpanKind.CLIENT);
    const atGateway = named('tools/call up_meta', SpanKind.SERVER);
    const upstreamCall = named('tools/call meta', SpanKind.CLIENT);
    const atUpstream = named('tools/call meta', SpanKind.SERVER);
    const traceId = downstream.spanContext().traceId;
    for (const span of [atGateway, upstreamCall, atUpstream]) expect(span.spanContext().traceId).toBe(traceId);
    expect(atGateway.parentSpanContext?.spanId).toBe(downstream.spanContext().spanId);
    expect(upstreamCall.parentSpanContext?.spanId).toBe(atGateway.spanContext().spanId);
    expect(atUpstream.parentSpanContext?.spanId).toBe(upstreamCall.spanContext().spanId);
    expect(meta['traceparent']).toBe(`00-${traceId}-${upstreamCall.spanContext().spanId}-01`);
  });
});
