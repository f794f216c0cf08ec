// MCP spans and metrics printed to the console. Run: node examples/otel-console/server.js  (PORT overrides 3001)
// Needs: npm install @opentelemetry/api @opentelemetry/core @opentelemetry/context-async-hooks @opentelemetry/sdk-trace-base @opentelemetry/sdk-metrics
import http from 'node:http';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { McpServer } from 'mcpkit';
import { createNodeHandler } from 'mcpkit/http';
import { correlatedLogger, instrument } from 'mcpkit/otel';

// 1. The OpenTelemetry SDK: a context manager (so handler spans nest), W3C propagators
//    (traceparent/tracestate/baggage in params._meta), and where spans and metrics go.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] }));
metrics.setGlobalMeterProvider(
  new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), exportIntervalMillis: 10_000 })] }),
);

// 2. mcpkit/otel: a SERVER span per request, a CLIENT span per elicitation/sampling/roots request,
//    mcp.server.operation.duration and mcp.server.session.duration. MCPKIT_TELEMETRY=off turns it off.
instrument({ mode: 'native' });

// 3. The server, as usual. Its logger's records carry the request id, method and trace ids.
const logger = correlatedLogger({ error: (...args) => console.error(...args), warn: (...args) => console.error(...args) });
const server = new McpServer({ name: 'otel-console-example', version: '1.0.0', logger });
server.tool('greet', {
  description: 'Greets someone',
  input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
}, async ({ name }) =>
  // A span of the tool's own: a child of the MCP span.
  trace.getTracer('greeter').startActiveSpan('compose greeting', (span) => {
    span.end();
    return `Hello, ${name}!`;
  }),
);

const handler = createNodeHandler(server, { path: '/mcp' });
const httpServer = http.createServer(handler);
httpServer.listen(Number(process.env.PORT ?? 3001), '127.0.0.1', () => {
  const { port } = httpServer.address();
  console.error(`listening on http://127.0.0.1:${port}/mcp`);
});

process.once('SIGTERM', async () => {
  await handler.close({ graceMs: 1000 });
  httpServer.close();
});
