/**
 * The contracts a tool, resource or prompt implements (what the registries hold). The shapes
 * they describe themselves with and return are the wire types (src/protocol/wire/types); the
 * protocol layer reshapes them for the negotiated revision.
 */
import type {
  McpPromptMessage,
  McpToolResult,
  Meta,
  PromptDescription,
  ResourceContents,
  ResourceDescription,
  ResourceTemplateDescription,
  ToolDescription,
} from '../wire-types/index.js';

/**
 * A tool. `execute` receives the (validated) arguments and the request
 * context the protocol layer supplies.
 */
export interface McpTool<TInput = unknown, TContext = unknown> extends Omit<ToolDescription, 'inputSchema'> {
  /** Any object when absent (`tools/list` shows `{ type: 'object' }`). */
  inputSchema?: Record<string, unknown>;
  /** 2026-07-28 tasks extension: whether a call may (`optional`) or must (`required`) run as a task. */
  task?: 'optional' | 'required';
  /** `manual`: the task is created when the handler calls `ctx.startTask()` (default: before the handler runs). */
  taskStart?: 'immediate' | 'manual';
  /** OAuth scopes a caller needs (HTTP `auth`): without them the call gets a 403 step-up challenge. */
  scopes?: readonly string[];
  /** Aborts the handler's signal and answers an error result after this long (ms); never on the wire. */
  timeoutMs?: number;
  execute(input: TInput, context: TContext): Promise<McpToolResult> | McpToolResult;
}

/** What a resource read returns: one contents object or several. */
export type McpResourceContent = ResourceContents | { uri?: string; mimeType?: string; text: string; _meta?: Meta } | { uri?: string; mimeType?: string; blob: string; _meta?: Meta };

export type McpReadResult = McpResourceContent | readonly McpResourceContent[];

export interface McpResource<TContext = unknown> extends ResourceDescription {
  /** OAuth scopes a caller needs (HTTP `auth`): without them the call gets a 403 step-up challenge. */
  scopes?: readonly string[];
  read(context: TContext): Promise<McpReadResult> | McpReadResult;
}

/** Completes one argument or template variable: the values that start with `value`, best first. */
export type Completer<TContext = unknown> = (
  value: string,
  context: { arguments: Record<string, string>; request: TContext },
) => readonly string[] | Promise<readonly string[]>;

export interface McpResourceTemplate<TContext = unknown> extends ResourceTemplateDescription {
  /** Completers for template variables, by variable name. */
  complete?: { readonly [name: string]: Completer<TContext> | undefined };
  /** OAuth scopes a caller needs (HTTP `auth`): without them the call gets a 403 step-up challenge. */
  scopes?: readonly string[];
  read(uri: string, variables: Record<string, string | string[]>, context: TContext): Promise<McpReadResult> | McpReadResult;
}

export interface McpPrompt<TContext = unknown> extends PromptDescription {
  /** Completers for arguments, by argument name. */
  complete?: { readonly [name: string]: Completer<TContext> | undefined };
  /** OAuth scopes a caller needs (HTTP `auth`): without them the call gets a 403 step-up challenge. */
  scopes?: readonly string[];
  get(args: Record<string, string> | undefined, context: TContext): Promise<readonly McpPromptMessage[]> | readonly McpPromptMessage[];
}
