/** Which era a message belongs to: `initialize`-based revisions, or 2026-07-28 with per-request `_meta`. */
export type Era = 'legacy' | 'modern';

/**
 * The declarative facts of one MCP method, read by the dispatcher and by the
 * HTTP engine alike (one table, `methods/table.ts`, holds them for every method).
 */
export interface MethodFacts {
  /** The JSON-RPC method name. */
  readonly method: string;
  readonly kind: 'request' | 'notification';
  /** The eras the method exists in; in any other it is -32601. */
  readonly eras: readonly Era[];
  /** 2026-07-28 results carry `ttlMs` and `cacheScope`. */
  readonly cacheable?: boolean;
  /** Handlers may ask the client for input (`ctx.elicit/sample/listRoots`): on 2026-07-28 as a Multi Round-Trip Request. */
  readonly asksClient?: boolean;
  /** The params field `Mcp-Name` mirrors (2026-07-28 HTTP routing headers). */
  readonly routingName?: 'name' | 'uri' | 'taskId';
  /**
   * The tool, prompt or resource the request names, and the params field that
   * names it: what observability reports (`RequestMessage.target`, OpenTelemetry's
   * tool name, prompt name and resource URI attributes).
   */
  readonly target?: MethodTarget;
  /** Answered on a stream that stays open (HTTP: always SSE). */
  readonly streams?: boolean;
  /** Where the result carries content blocks older revisions may not know (replaced by text for them). */
  readonly downgrade?: 'content' | 'messages';
  /** Starts a legacy session (`initialize`): over HTTP, a request without a session that may open one. */
  readonly negotiates?: boolean;
  /** False for requests the client may not cancel (`initialize`): they are not tracked. */
  readonly cancellable?: boolean;
}

/** What a request names (`MethodFacts.target`). */
export interface MethodTarget {
  readonly kind: 'tool' | 'prompt' | 'resource';
  readonly param: 'name' | 'uri';
}

export const TOOL_TARGET: MethodTarget = Object.freeze({ kind: 'tool', param: 'name' });
export const PROMPT_TARGET: MethodTarget = Object.freeze({ kind: 'prompt', param: 'name' });
export const RESOURCE_TARGET: MethodTarget = Object.freeze({ kind: 'resource', param: 'uri' });

export const LEGACY_ONLY: readonly Era[] = Object.freeze(['legacy']);
export const MODERN_ONLY: readonly Era[] = Object.freeze(['modern']);
export const BOTH_ERAS: readonly Era[] = Object.freeze(['legacy', 'modern']);
