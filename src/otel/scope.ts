/** The request a piece of code runs for, carried across awaits by the request channel's bound store. */
import { context, type Context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestMessage } from '../observability/channels.js';

export interface RequestState {
  readonly message: RequestMessage;
  /** The SERVER span (native mode only). */
  readonly span: Span | undefined;
  /** What handlers run in: the span's context, or the one extracted from `_meta`. */
  readonly context: Context;
  /** performance.now() at arrival. */
  readonly started: number;
}

/** Live scopes, so a logger can find the request it is called for. */
export const scopes = new Set<RequestScope>();

/**
 * Bound to `tracing:mcpkit:request:start`: while the request runs, it holds
 * the request's state and makes the request's OpenTelemetry context current
 * (through the global context manager, whatever it is).
 */
export class RequestScope extends AsyncLocalStorage<RequestState> {
  override run<R, TArgs extends unknown[]>(state: RequestState, callback: (...args: TArgs) => R, ...args: TArgs): R {
    return super.run(state, () => context.with(state.context, callback, undefined, ...args));
  }
}
