/**
 * The proxy's items: an upstream's list entries (tools, resources, templates, prompts) as provider
 * items whose handlers forward to the upstream through `call`. Only the fields the wire defines are
 * kept; completers exist when the upstream completes at all.
 */
import { isPlainObject } from '../jsonrpc/message.js';
import type { RequestContext } from '../protocol/request/context.js';
import type { Completer, McpPrompt, McpReadResult, McpResource, McpResourceTemplate, McpTool } from '../registries/types.js';
import type { McpPromptMessage, McpToolResult } from '../wire-types/index.js';

type Json = Record<string, unknown>;

export interface ItemHooks {
  /** One proxied request, on the link of the request's downstream owner. */
  call(ctx: RequestContext, method: string, params: Json): Promise<Json>;
  /** The upstream offers completion (known once connected). */
  completes(): boolean;
}

export function toolOf(wire: Json, hooks: ItemHooks): McpTool<never, RequestContext> | undefined {
  if (typeof wire['name'] !== 'string') return undefined;
  const name = wire['name'];
  const tool = pick(wire, ['title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta']) as Omit<McpTool<never, RequestContext>, 'execute' | 'name'>;
  return {
    ...tool,
    name,
    execute: (args: unknown, ctx: RequestContext) => hooks.call(ctx, 'tools/call', args === undefined ? { name } : { name, arguments: args }) as Promise<McpToolResult>,
  };
}

export function resourceOf(wire: Json, hooks: ItemHooks): McpResource<RequestContext> | undefined {
  if (typeof wire['uri'] !== 'string' || typeof wire['name'] !== 'string') return undefined;
  const uri = wire['uri'];
  const described = pick(wire, ['title', 'description', 'mimeType', 'size', 'icons', 'annotations', '_meta']);
  return { ...described, uri, name: wire['name'], read: (ctx: RequestContext) => read(hooks, ctx, uri) };
}

export function templateOf(wire: Json, hooks: ItemHooks): McpResourceTemplate<RequestContext> | undefined {
  if (typeof wire['uriTemplate'] !== 'string' || typeof wire['name'] !== 'string') return undefined;
  const uriTemplate = wire['uriTemplate'];
  const described = pick(wire, ['title', 'description', 'mimeType', 'icons', 'annotations', '_meta']);
  const template = { ...described, uriTemplate, name: wire['name'], read: (uri: string, _variables: unknown, ctx: RequestContext) => read(hooks, ctx, uri) } as McpResourceTemplate<RequestContext>;
  const completers = completersOf(hooks, variablesOf(uriTemplate), (argument, context, ctx) => ({ ref: { type: 'ref/resource', uri: uriTemplate }, argument, context, ctx }));
  if (completers !== undefined) template.complete = completers;
  return template;
}

export function promptOf(wire: Json, hooks: ItemHooks): McpPrompt<RequestContext> | undefined {
  if (typeof wire['name'] !== 'string') return undefined;
  const name = wire['name'];
  const described = pick(wire, ['title', 'description', 'arguments', 'icons', '_meta']);
  const prompt = {
    ...described,
    name,
    get: async (args: Record<string, string> | undefined, ctx: RequestContext) => {
      const result = await hooks.call(ctx, 'prompts/get', args === undefined ? { name } : { name, arguments: args });
      return (Array.isArray(result['messages']) ? result['messages'] : []) as McpPromptMessage[];
    },
  } as McpPrompt<RequestContext>;
  const argumentNames = Array.isArray(wire['arguments']) ? (wire['arguments'] as unknown[]).flatMap((a) => (isPlainObject(a) && typeof a['name'] === 'string' ? [a['name']] : [])) : [];
  const completers = completersOf(hooks, argumentNames, (argument, context, ctx) => ({ ref: { type: 'ref/prompt', name }, argument, context, ctx }));
  if (completers !== undefined) prompt.complete = completers;
  return prompt;
}

/** One completer per argument or variable, when the upstream completes at all. */
function completersOf(hooks: ItemHooks, names: readonly string[], request: (argument: Json, context: Json, ctx: RequestContext) => Json): Record<string, Completer<RequestContext>> | undefined {
  if (names.length === 0 || !hooks.completes()) return undefined;
  const out: Record<string, Completer<RequestContext>> = {};
  for (const name of names.slice(0, 64)) {
    out[name] = async (value, { arguments: args, request: ctx }) => {
      const { ctx: _ctx, ...params } = request({ name, value }, { arguments: args }, ctx);
      const result = await hooks.call(ctx, 'completion/complete', params);
      const values = isPlainObject(result['completion']) ? result['completion']['values'] : undefined;
      return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string').slice(0, 100) : [];
    };
  }
  return out;
}

async function read(hooks: ItemHooks, ctx: RequestContext, uri: string): Promise<McpReadResult> {
  const result = await hooks.call(ctx, 'resources/read', { uri });
  return (Array.isArray(result['contents']) ? result['contents'] : []) as McpReadResult;
}

function pick(source: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

/** The variable names of an RFC 6570 template (`{id}`, `{+path}`, `{?q,lang}`). */
function variablesOf(template: string): string[] {
  const names: string[] = [];
  for (const match of template.slice(0, 8192).matchAll(/\{[+#./;?&]?([^}]{1,512})\}/g)) {
    for (const part of match[1]!.split(',')) {
      const name = part.replace(/[*]$|:\d+$/, '');
      if (name !== '' && !names.includes(name)) names.push(name);
    }
  }
  return names;
}
