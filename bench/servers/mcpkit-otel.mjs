// The mcpkit/otel bench variants: the same mcpkit server with instrument() in
// propagation_only or native mode. Native spans go through a BatchSpanProcessor
// to an exporter that drops them, metrics to a reader that never exports, so
// what is measured is mcpkit/otel and the SDK, not an exporter's I/O.
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { instrument } from '../../dist/otel.js';

const dropped = { export: (_items, done) => done({ code: 0 }), shutdown: () => Promise.resolve(), forceFlush: () => Promise.resolve() };

export function setUpOtel(mode) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropped)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: dropped, exportIntervalMillis: 60_000 })] }));
  // 'hand': the same SDK set-up without mcpkit/otel (mcpkit-otel-hand-http.mjs makes the spans itself).
  if (mode !== 'hand') instrument({ mode });
}
