import type { RequestContext } from './context.js';

/**
 * What a middleware sees of one request. `P` is the params' type: the typed
 * form (`MiddlewareContext<M>`) reads it from the method table
 * (`methods/middleware-types.ts`).
 */
export interface MiddlewareContextOf<M extends string = string, P = Record<string, unknown>> {
  readonly method: M;
  /** The request's params; replace or mutate them before calling `next()`. */
  params: P;
  /** The handler context (signal, client, auth info, per-request `state`…). */
  readonly request: RequestContext;
}

/** A registered middleware: around every request, or only around one method. */
export interface Middleware {
  method: string | undefined;
  fn: (ctx: MiddlewareContextOf, next: () => Promise<unknown>) => Promise<unknown>;
}

/** Runs the onion: each middleware sees the method and params, calls next(), and may change the result. */
export function runMiddleware(
  chain: readonly Middleware[] | undefined,
  method: string,
  params: Record<string, unknown>,
  request: RequestContext,
  final: (params: Record<string, unknown>) => Promise<unknown>,
): Promise<unknown> {
  if (chain === undefined || chain.length === 0) return final(params);
  const ctx: MiddlewareContextOf = { method, params, request };
  const step = async (index: number): Promise<unknown> => {
    for (let i = index; i < chain.length; i++) {
      const mw = chain[i]!;
      if (mw.method === undefined || mw.method === method) {
        let called = false;
        return mw.fn(ctx, () => {
          if (called) throw new Error(`next() called twice by a middleware for ${method}`);
          called = true;
          return step(i + 1);
        });
      }
    }
    return final(ctx.params);
  };
  return step(0);
}
