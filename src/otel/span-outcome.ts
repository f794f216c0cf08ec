/** What the server and client instrumentations both write on a span as it ends. */
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { ATTR, type Outcome } from './attributes.js';

/** A failed outcome marks the span: error.type, the JSON-RPC code, an ERROR status. */
export function settle(span: Span, outcome: Outcome): void {
  if (outcome.errorType === undefined) return;
  span.setAttribute(ATTR.errorType, outcome.errorType);
  if (outcome.statusCode !== undefined) span.setAttribute(ATTR.statusCode, outcome.statusCode);
  span.setStatus(outcome.message !== undefined ? { code: SpanStatusCode.ERROR, message: outcome.message } : { code: SpanStatusCode.ERROR });
}

/** A value as a JSON attribute (opt-in capture of arguments and results). */
export function setJson(span: Span, key: string, value: unknown): void {
  if (value === undefined) return;
  try {
    span.setAttribute(key, JSON.stringify(value));
  } catch {
    // Not serialisable (a cycle, a bigint): leave it out rather than fail the request.
  }
}
