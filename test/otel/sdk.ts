/** The OpenTelemetry SDK wired to in-memory exporters, registered globally for one test file. */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, MetricReader, type DataPoint, type Histogram, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

class TestMetricReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

export interface TestSdk {
  exporter: InMemorySpanExporter;
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  spans(): ReadableSpan[];
  /** Histogram points of one metric. */
  histogram(name: string): Promise<{ boundaries: number[]; points: DataPoint<Histogram>[] }>;
}

export function setUpSdk(): TestSdk {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestMetricReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  // The quick project shares a process between files (isolate: false): drop the previous file's globals, or its provider would keep receiving.
  trace.disable();
  context.disable();
  propagation.disable();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(tracerProvider);
  return {
    exporter,
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    async histogram(name) {
      const { resourceMetrics } = await reader.collect();
      const metric = findMetric(resourceMetrics, name);
      if (metric === undefined) return { boundaries: [], points: [] };
      const points = metric.dataPoints as DataPoint<Histogram>[];
      return { boundaries: points[0]?.value.buckets.boundaries ?? [], points };
    },
  };
}

function findMetric(resourceMetrics: ResourceMetrics, name: string) {
  for (const scope of resourceMetrics.scopeMetrics) {
    const metric = scope.metrics.find((m) => m.descriptor.name === name);
    if (metric !== undefined) return metric;
  }
  return undefined;
}
