/** Log records that carry the request and trace they belong to, so logs and traces correlate. */
import { context, trace } from '@opentelemetry/api';
import type { Logger } from '../protocol/scopes/options.js';
import { currentRequest } from './scope.js';

/** The structured record appended to every log call made while a request runs. */
export interface RequestLogRecord {
  'mcp.method.name'?: string;
  'jsonrpc.request.id'?: string;
  'mcp.session.id'?: string;
  trace_id?: string;
  span_id?: string;
}

/** The record for the code running now; empty outside any request and span. */
export function requestLogRecord(): RequestLogRecord {
  const record: RequestLogRecord = {};
  const state = currentRequest();
  if (state !== undefined) {
    record['mcp.method.name'] = state.message.method;
    if (state.message.id !== null) record['jsonrpc.request.id'] = String(state.message.id);
    if (state.message.sessionId !== undefined) record['mcp.session.id'] = state.message.sessionId;
  }
  const span = trace.getSpanContext(context.active());
  if (span !== undefined && trace.isSpanContextValid(span)) {
    record.trace_id = span.traceId;
    record.span_id = span.spanId;
  }
  return record;
}

/**
 * Wraps the server's logger: every call made while a request runs gets the
 * request's method, id, session and trace/span ids as a last argument.
 * Needs `instrument()` (any mode but `off`) to know the request.
 */
export function correlatedLogger(logger: Logger): Logger {
  const wrapped: Logger = {};
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    if (logger[level] === undefined) continue;
    wrapped[level] = (message, ...args) => {
      const record = requestLogRecord();
      if (Object.keys(record).length === 0) logger[level]?.(message, ...args);
      else logger[level]?.(message, ...args, record);
    };
  }
  return wrapped;
}
