/** The middleware types, read from the method table: a method declares its params and result once, in its entry. */
import type { MiddlewareContextOf } from '../request/middleware.js';
import type { MethodTypes } from './table.js';

export type { MethodTypes } from './table.js';

export type ParamsOf<M extends string> = M extends keyof MethodTypes ? MethodTypes[M]['params'] & { _meta?: Record<string, unknown> } : Record<string, unknown>;
export type ResultOf<M extends string> = M extends keyof MethodTypes ? MethodTypes[M]['result'] : unknown;

export type MiddlewareContext<M extends string = string> = MiddlewareContextOf<M, ParamsOf<M>>;

export type MiddlewareFn<M extends string = string> = (ctx: MiddlewareContext<M>, next: () => Promise<ResultOf<M>>) => Promise<ResultOf<M>>;
