/** The request a piece of code runs for: kept in the OpenTelemetry context the request runs in. */
import { context, createContextKey, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestMessage } from '../protocol/observability/channels.js';

export interface RequestState {
  readonly message: RequestMessage;
  /** The SERVER span (native mode only). */
  readonly span: Span | undefined;
  /** What handlers run in: the span's context, or the one extracted from `_meta`; it holds this state. */
  context: Context;
  /** performance.now() at arrival. */
  readonly started: number;
  /** The duration metric's attributes as the request began (native mode): reused when it ends as it began. */
  readonly operation?: Attributes | undefined;
}

const REQUEST = createContextKey('mcpkit request');

/** The state of the request whose code is running (needs a context manager, as any OpenTelemetry setup has). */
export function currentRequest(active: Context = context.active()): RequestState | undefined {
  return active.getValue(REQUEST) as RequestState | undefined;
}

/** Makes `state` findable from its context. */
export function holding(state: RequestState): RequestState {
  state.context = state.context.setValue(REQUEST, state);
  return state;
}

/**
 * Bound to `tracing:mcpkit:request:start`: the request runs in its
 * OpenTelemetry context, through the global context manager. Its own
 * AsyncLocalStorage is never used (one storage switch per request, not two).
 */
export class RequestScope extends AsyncLocalStorage<RequestState> {
  override run<R, TArgs extends unknown[]>(state: RequestState, callback: (...args: TArgs) => R, ...args: TArgs): R {
    return context.with(state.context, callback, undefined, ...args);
  }
}
