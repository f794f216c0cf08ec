import type { McpToolResult, PromptDescription, ResourceDescription, ResourceTemplateDescription, ToolDescription } from '../../registries/types.js';
import type { RequestContext } from './context.js';

/** Params and results of the methods middleware most often touches; others are loosely typed. */
export interface MethodTypes {
  'tools/list': { params: { cursor?: string }; result: { tools: ToolDescription[]; nextCursor?: string } };
  'tools/call': { params: { name: string; arguments?: Record<string, unknown> }; result: McpToolResult };
  'resources/list': { params: { cursor?: string }; result: { resources: ResourceDescription[]; nextCursor?: string } };
  'resources/templates/list': { params: { cursor?: string }; result: { resourceTemplates: ResourceTemplateDescription[]; nextCursor?: string } };
  'resources/read': { params: { uri: string }; result: { contents: Record<string, unknown>[] } };
  'prompts/list': { params: { cursor?: string }; result: { prompts: PromptDescription[]; nextCursor?: string } };
  'prompts/get': { params: { name: string; arguments?: Record<string, string> }; result: { description?: string; messages: unknown[] } };
}

export type ParamsOf<M extends string> = M extends keyof MethodTypes ? MethodTypes[M]['params'] & { _meta?: Record<string, unknown> } : Record<string, unknown>;
export type ResultOf<M extends string> = M extends keyof MethodTypes ? MethodTypes[M]['result'] : unknown;

export interface MiddlewareContext<M extends string = string> {
  readonly method: M;
  /** The request's params; replace or mutate them before calling `next()`. */
  params: ParamsOf<M>;
  /** The handler context (signal, client, auth info, per-request `state`…). */
  readonly request: RequestContext;
}

export type MiddlewareFn<M extends string = string> = (ctx: MiddlewareContext<M>, next: () => Promise<ResultOf<M>>) => Promise<ResultOf<M>>;

/** A registered middleware: around every request, or only around one method. */
export interface Middleware {
  method: string | undefined;
  fn: MiddlewareFn;
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
  const ctx: MiddlewareContext = { method, params, request };
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
