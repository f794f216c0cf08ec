/**
 * mcpkit/client under mcpkit/otel, against a real mcpkit server over HTTP in this process, both
 * eras: CLIENT span names, kinds, attributes and status per the MCP semantic conventions, the
 * client duration metric, and the server's SERVER span continuing the client's trace via `_meta`.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listen, type McpHttpListener } from '../../src/adapters/node.js';
import { Client, McpError, StreamableHttpTransport } from '../../src/client.js';
import { instrument, type Instrumentation } from '../../src/otel.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { setUpSdk } from './sdk.js';
import { observedServer, type Json } from './support.js';

const sdk = setUpSdk();
let instrumentation: Instrumentation;
beforeAll(() => {
  instrumentation = instrument({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
});
afterAll(() => instrumentation.disable());

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  sdk.exporter.reset();
});

/** observedServer plus `meta`, which answers with the `_meta` it received. */
async function connected(version: string): Promise<{ client: Client; listener: McpHttpListener }> {
  const server = observedServer();
  server.tool('meta', { input: { type: 'object', properties: {} } }, (_args, ctx) => JSON.stringify(ctx.meta ?? {}));
  const listener = await listen(server, { port: 0 });
  cleanup.push(() => listener.close());
  const client = new Client({ protocolVersion: version as typeof LEGACY, elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) });
  await client.connect(new StreamableHttpTransport(listener.url));
  cleanup.push(() => client.close());
  sdk.exporter.reset();
  return { client, listener };
}

const spansNamed = (name: string, kind: SpanKind): ReadableSpan[] => sdk.spans().filter((s) => s.name === name && s.kind === kind);
const one = (name: string, kind: SpanKind): ReadableSpan => {
  const found = spansNamed(name, kind);
  expect(found, `${SpanKind[kind]} spans named ${name}: ${sdk.spans().map((s) => `${SpanKind[s.kind]} ${s.name}`).join(', ')}`).toHaveLength(1);
  return found[0]!;
};
const textOf = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

describe.each([LEGACY, MODERN])('CLIENT spans over HTTP, %s', (version) => {
  it('tools/call: name, kind, attributes; the server span is its child in the same trace', async () => {
    const { client, listener } = await connected(version);
    const answered = await client.callTool('echo', { text: 'hi' });
    expect(textOf(answered)).toBe('echo: hi');
    const span = one('tools/call echo', SpanKind.CLIENT);
    const url = new URL(listener.url);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': version,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'server.address': url.hostname,
      'server.port': Number(url.port),
    });
    expect(span.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
    if (version === LEGACY) expect(span.attributes['mcp.session.id']).toMatch(/.+/);
    else expect(span.attributes['mcp.session.id']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    const served = one('tools/call echo', SpanKind.SERVER);
    expect(served.spanContext().traceId).toBe(span.spanContext().traceId);
    expect(served.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(served.attributes['jsonrpc.request.id']).toBe(span.attributes['jsonrpc.request.id']);
  });

  it('the traceparent the server got names the CLIENT span; a caller span is the CLIENT span parent', async () => {
    const { client } = await connected(version);
    const meta = await trace.getTracer('app').startActiveSpan('caller', async (caller) => {
      try {
        return JSON.parse(textOf(await client.callTool('meta', {}))) as Json;
      } finally {
        caller.end();
      }
    });
    const span = one('tools/call meta', SpanKind.CLIENT);
    const caller = one('caller', SpanKind.INTERNAL);
    expect(span.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(caller.spanContext().traceId);
    expect(meta['traceparent']).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });

  it('isError → error.type tool_error and status ERROR; a JSON-RPC error → its code', async () => {
    const { client } = await connected(version);
    expect((await client.callTool('refuse', {})).isError).toBe(true);
    const refused = one('tools/call refuse', SpanKind.CLIENT);
    expect(refused.attributes['error.type']).toBe('tool_error');
    expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    const failed = await client.callTool('strict', {}).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(McpError);
    const strict = one('tools/call strict', SpanKind.CLIENT);
    expect(strict.attributes).toMatchObject({ 'error.type': '-32050', 'rpc.response.status_code': '-32050' });
    expect(strict.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'Custom failure' });
  });

  it('prompts and resources: span names, prompt name and resource URI', async () => {
    const { client } = await connected(version);
    await client.getPrompt('greet');
    await client.readResource('config://app');
    expect(one('prompts/get greet', SpanKind.CLIENT).attributes['gen_ai.prompt.name']).toBe('greet');
    expect(one('resources/read', SpanKind.CLIENT).attributes['mcp.resource.uri']).toBe('config://app');
  });

  it('mcp.client.operation.duration: one point per operation, with the conventions attributes', async () => {
    const { client } = await connected(version);
    await client.callTool('echo', { text: 'x' });
    await client.callTool('refuse', {});
    const { boundaries, points } = await sdk.histogram('mcp.client.operation.duration');
    expect(boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    const echo = points.find((p) => p.attributes['gen_ai.tool.name'] === 'echo' && p.attributes['mcp.protocol.version'] === version);
    expect(echo?.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'network.transport': 'tcp' });
    expect(echo?.attributes['error.type']).toBeUndefined();
    expect(echo?.attributes['jsonrpc.request.id']).toBeUndefined();
    const refuse = points.find((p) => p.attributes['gen_ai.tool.name'] === 'refuse' && p.attributes['mcp.protocol.version'] === version);
    expect(refuse?.attributes['error.type']).toBe('tool_error');
  });
});

describe('the connection itself', () => {
  it('legacy: initialize carries the revision agreed on; notifications/initialized is a CLIENT span', async () => {
    const server = observedServer();
    const listener = await listen(server, { port: 0 });
    cleanup.push(() => listener.close());
    const client = new Client({ protocolVersion: LEGACY });
    await client.connect(new StreamableHttpTransport(listener.url));
    cleanup.push(() => client.close());
    const init = one('initialize', SpanKind.CLIENT);
    expect(init.attributes['mcp.protocol.version']).toBe(LEGACY);
    const served = one('initialize', SpanKind.SERVER);
    expect(served.parentSpanContext?.spanId).toBe(init.spanContext().spanId);
    const initialized = one('notifications/initialized', SpanKind.CLIENT);
    expect(initialized.attributes).toMatchObject({ 'mcp.method.name': 'notifications/initialized', 'mcp.protocol.version': LEGACY, 'network.transport': 'tcp' });
    expect(one('notifications/initialized', SpanKind.SERVER).parentSpanContext?.spanId).toBe(initialized.spanContext().spanId);
  });

  it('a server that cannot be reached: error.type is the transport failure', async () => {
    const client = new Client({ protocolVersion: MODERN });
    await expect(client.connect(new StreamableHttpTransport('http://127.0.0.1:9/mcp'))).rejects.toThrow();
    const span = one('server/discover', SpanKind.CLIENT);
    expect(span.attributes['error.type']).toBe('unreachable');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });
});
