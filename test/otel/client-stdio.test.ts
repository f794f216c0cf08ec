/**
 * mcpkit/client under mcpkit/otel over stdio, both eras, against an instrumented mcpkit server in
 * a child process (fixtures/traced-stdio-server.mjs) that writes its spans to a file: the CLIENT
 * span's attributes (network.transport pipe), and the child's SERVER span continuing its trace.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, StdioClientTransport } from '../../src/client.js';
import { instrument, type Instrumentation } from '../../src/otel.js';
import { LEGACY, MODERN } from '../support/revisions.js';
import { setUpSdk } from './sdk.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/traced-stdio-server.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-client-stdio-'));
const sdk = setUpSdk();
let instrumentation: Instrumentation;
beforeAll(() => {
  instrumentation = instrument({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
});
afterAll(() => {
  instrumentation.disable();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => sdk.exporter.reset());

interface ChildSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

describe.each([LEGACY, MODERN])('over stdio, %s', (version) => {
  it('CLIENT spans with network.transport pipe; the child server span is their child', async () => {
    const spansFile = join(dir, `${version}.jsonl`);
    const client = new Client({ protocolVersion: version as typeof LEGACY });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], env: { ...process.env, MCPKIT_SPANS_FILE: spansFile } }));
    try {
      sdk.exporter.reset();
      const meta = JSON.parse((((await client.callTool("meta", {})).content[0]) as { text: string }).text) as Record<string, unknown>;
      expect((await client.callTool('refuse', {})).isError).toBe(true);
      const call = sdk.spans().find((s) => s.name === 'tools/call meta')!;
      expect(call.kind).toBe(SpanKind.CLIENT);
      expect(call.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'meta', 'mcp.protocol.version': version, 'network.transport': 'pipe' });
      expect(call.attributes['server.address']).toBeUndefined();
      expect(meta['traceparent']).toBe(`00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`);
      const refused = sdk.spans().find((s) => s.name === 'tools/call refuse')!;
      expect(refused.attributes['error.type']).toBe('tool_error');
      expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    } finally {
      await client.close();
    }
    const childSpans = readFileSync(spansFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as ChildSpan);
    const call = sdk.spans().find((s) => s.name === 'tools/call meta')!;
    const served = childSpans.find((s) => s.name === 'tools/call meta')!;
    expect(served).toMatchObject({ kind: SpanKind.SERVER, traceId: call.spanContext().traceId, parentSpanId: call.spanContext().spanId });
    expect(served.attributes['network.transport']).toBe('pipe');
  });
});
