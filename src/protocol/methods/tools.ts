import { isJsonRpcProtocolError } from '../../jsonrpc/errors.js';
import { McpToolNotFoundError, ToolError, ToolOutputError } from '../../errors/classes.js';
import type { McpTool } from '../../registries/types.js';
import type { ListToolsResult, McpToolResult, ToolDescription } from '../../wire-types/index.js';
import { invalidToolResult, toolResultProblem } from './result-checks.js';
import type { RequestContext } from '../request/context.js';
import type { MethodContext } from '../scopes/method-context.js';
import type { ServerScope } from '../scopes/server-scope.js';
import { callToolAsTask, taskOptionsOf } from '../scopes/task-runtime.js';
import { checkParamHeaders } from '../wire/routing-headers.js';
import { BOTH_ERAS, TOOL_TARGET } from '../wire/method-facts.js';
import { isThenable } from '../../util/thenable.js';
import { catalogPage, declares, optionalObject, pick, requireString, toolScopes, type RequestMethod } from './shared.js';

const DEFAULT_INPUT_SCHEMA = Object.freeze({ type: 'object' });
const TOOL_FIELDS = ['title', 'description', 'outputSchema', 'annotations', 'icons', 'execution', '_meta'] as const satisfies readonly (keyof ToolDescription & keyof McpTool)[];

/** The wire form of a tool; a tool without an input schema accepts any object. */
export function wireTool(tool: McpTool<never, RequestContext>): ToolDescription {
  return pick(tool, TOOL_FIELDS, { name: tool.name, inputSchema: tool.inputSchema ?? DEFAULT_INPUT_SCHEMA });
}

export const listTools: RequestMethod<'tools/list', { cursor?: string }, ListToolsResult> = {
  method: 'tools/list',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: declares('tools'),
  cacheable: true,
  handle: (params, context) => catalogPage(context, params, 'tools', 'tools', context.server.tools, wireTool),
};

/** A tool's own timeout (`McpTool.timeoutMs`); not positive (a registered object from plain JavaScript, say) is none. */
function toolTimeout(tool: McpTool | undefined): number | undefined {
  const value = tool?.timeoutMs;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

export const callTool: RequestMethod<'tools/call', { name: string; arguments?: Record<string, unknown> }, McpToolResult> = {
  method: 'tools/call',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: declares('tools'),
  asksClient: true,
  routingName: 'name',
  target: TOOL_TARGET,
  scopes: toolScopes,
  downgrade: 'content',
  timeoutMs: (server, params) => {
    const name = params['name'];
    if (typeof name !== 'string') return undefined;
    return toolTimeout(server.catalog === undefined ? server.tools.get(name) : server.catalog.peekTool(name));
  },
  onTimeout: (error) => ({ content: [{ type: 'text', text: error.message }], isError: true }),
  handle(params, context: MethodContext) {
    const server = context.server;
    const name = requireString(params, 'name');
    const args = optionalObject(params, 'arguments') ?? {};
    const headers = context.requestInfo?.headers;
    if (context.era === 'modern' && headers !== undefined) checkParamHeaders(server.tools.headerParams(name), args, headers);
    // 2026-07-28 tasks extension: a tool declaring task support may answer with a task.
    const task = context.era !== 'modern' ? undefined : server.catalog !== undefined ? taskOptionsOf(server.catalog.peekTool(name)) : server.tools.isEnabled(name) ? taskOptionsOf(server.tools.get(name)) : undefined;
    if (task !== undefined) return callToolAsTask(task, context, server.tasks, async (ctx) => runTool(name, args, ctx, server));
    return runTool(name, args, context, server);
  },
};

/** The tool's result; synchronous when the tool is (no promise per call), a promise otherwise. */
function runTool(name: string, args: Record<string, unknown>, context: RequestContext, server: ServerScope): unknown {
  let result: unknown;
  try {
    const catalog = server.catalog;
    result = catalog === undefined ? server.tools.invoke(name, args, context) : catalog.callTool(name, args, context);
  } catch (error) {
    return toolFailure(error, context, server);
  }
  return isThenable(result) ? Promise.resolve(result).then((value) => checkedTool(name, value, server), (error: unknown) => toolFailure(error, context, server)) : checkedTool(name, result, server);
}

/** What the tool returned, if it is a valid CallToolResult (the common case: a few property reads). */
function checkedTool(name: string, result: unknown, server: ServerScope): unknown {
  const problem = toolResultProblem(result);
  return problem === undefined ? result : invalidToolResult(server.logger, name, result, problem);
}

function toolFailure(error: unknown, context: RequestContext, server: ServerScope): unknown {
  // Failures to find the tool, protocol errors and server bugs stay JSON-RPC errors.
  if (error instanceof McpToolNotFoundError || error instanceof ToolOutputError || isJsonRpcProtocolError(error)) throw error;
  if (context.signal.aborted && isJsonRpcProtocolError(context.signal.reason)) throw context.signal.reason;
  return toolErrorResult(error, server.results.maskErrors === true);
}

/** A tool's failure as a result the model can read (SEP-1303): never a stack trace. */
export function toolErrorResult(error: unknown, mask: boolean): Record<string, unknown> {
  if (error instanceof ToolError) {
    const result: Record<string, unknown> = { content: [{ type: 'text', text: error.message }], isError: true };
    if (error.structuredContent !== undefined) result['structuredContent'] = error.structuredContent;
    return result;
  }
  const message = !mask && error instanceof Error && error.message ? error.message : 'Internal error';
  return { content: [{ type: 'text', text: message }], isError: true };
}
