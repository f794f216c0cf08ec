/**
 * `mcpkit/otel`: OpenTelemetry traces, metrics and trace-context propagation
 * for mcpkit servers, per the OpenTelemetry semantic conventions for MCP.
 * Needs `@opentelemetry/api` (an optional peer dependency); the rest of
 * mcpkit never loads it. See docs/observability.md.
 */
export { instrument, type InstrumentOptions, type Instrumentation, type TelemetryMode } from './otel/instrument.js';
export { correlatedLogger } from './otel/logger.js';
