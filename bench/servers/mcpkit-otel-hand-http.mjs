// mcpkit over HTTP without mcpkit/otel, its tools making by hand the span and the duration metric that
// native mode makes per tools/call (same SDK, same set-up, same attributes, the span active while the
// tool runs): what the spans themselves cost, for `ab.mjs … mcpkit-otel-native-http.mjs
// mcpkit-otel-hand-http.mjs mcpkit-http.mjs` (issue 29, point 4).
import http from 'node:http';
import { context, metrics, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { McpServer } from '../../dist/index.js';
import { createNodeHandler } from '../../dist/http.js';
import { host, port, mode, shaped } from './_common.mjs';
import { setUpOtel } from './mcpkit-otel.mjs';

setUpOtel('hand');
const tracer = trace.getTracer('bench-hand');
const durations = metrics.getMeter('bench-hand').createHistogram('mcp.server.operation.duration', { unit: 's' });
const getter = { keys: (c) => Object.keys(c), get: (c, k) => (typeof c[k] === 'string' ? c[k] : undefined) };

/** The tool `name`'s handler inside a SERVER span and a duration record, as mcpkit/otel native mode makes them. */
function traced(name, handler) {
  return (args, ctx) => {
    const started = performance.now();
    const parent = ctx.meta === undefined ? context.active() : propagation.extract(context.active(), ctx.meta, getter);
    const operation = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': name, 'gen_ai.operation.name': 'execute_tool', 'mcp.protocol.version': ctx.protocolVersion, 'network.transport': 'tcp', 'network.protocol.name': 'http', 'network.protocol.version': '1.1' };
    const attributes = { ...operation, 'jsonrpc.request.id': String(ctx.requestId) };
    if (ctx.sessionId !== undefined) attributes['mcp.session.id'] = ctx.sessionId;
    const span = tracer.startSpan(`tools/call ${name}`, { kind: SpanKind.SERVER, attributes }, parent ?? ROOT_CONTEXT);
    const done = () => {
      span.end();
      durations.record((performance.now() - started) / 1000, operation);
    };
    const result = context.with(trace.setSpan(parent, span), () => handler(args, ctx));
    if (result instanceof Promise) return result.finally(done);
    done();
    return result;
  };
}

const server = new McpServer({ name: 'bench', version: '1.0.0' });
server.tool('echo', { description: 'Echo the text back', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, traced('echo', shaped(({ text }) => text)));
server.tool('add', { description: 'Add two numbers', input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }, traced('add', shaped(({ a, b }) => String(a + b))));
http.createServer(createNodeHandler(server, mode === 'stateless' ? { stateless: true } : { limits: { maxSessionsPerClient: 2_000 } })).listen(port, host);
