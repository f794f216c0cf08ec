import { andThen, listOf, resolveIn } from '../registries/catalog.js';
import type { MaybePromise, McpProvider } from '../registries/provider.js';
import type { McpPrompt, McpReadResult, McpTool } from '../registries/types.js';
import type { ContentBlock, McpToolResult } from '../wire-types/index.js';
import { McpResourceNotFoundError, ToolError } from '../errors/classes.js';

type ToolList<C> = (ctx: C | undefined) => MaybePromise<readonly McpTool<never, C>[]>;

/** One tool per prompt, `prompt_<name>`: its arguments as string properties, its messages' content as the result. */
export function toolsFromPrompts<C>(provider: McpProvider<C>): ToolList<C> {
  const made = new WeakMap<object, McpTool<never, C>>();
  const lists = new WeakMap<object, readonly McpTool<never, C>[]>();
  const toolOf = (p: McpPrompt<C>): McpTool<never, C> => {
    let t = made.get(p);
    if (t !== undefined) return t;
    const properties: Record<string, unknown> = {};
    for (const a of p.arguments ?? []) properties[a.name] = { type: 'string', ...(a.description !== undefined && { description: a.description }) };
    const required = (p.arguments ?? []).filter((a) => a.required === true).map((a) => a.name);
    t = {
      name: `prompt_${p.name}`,
      description: p.description ?? `The messages of prompt "${p.name}"`,
      inputSchema: { type: 'object', properties, ...(required.length > 0 && { required }) },
      annotations: { readOnlyHint: true },
      execute: (args: never, ctx: C) => {
        const given: Record<string, string> = {};
        for (const [k, v] of Object.entries((args ?? {}))) if (typeof v === 'string') given[k] = v;
        const missing = required.filter((name) => given[name] === undefined);
        if (missing.length > 0) throw new ToolError(`Missing required argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
        return andThen(p.get(given, ctx), (messages): McpToolResult => ({
          content: messages.map((m) => m.content),
          structuredContent: { messages: messages.map((m) => ({ role: m.role, content: m.content })) },
        }));
      },
    };
    made.set(p, t);
    return t;
  };
  return (ctx) =>
    andThen(listOf(provider, 'prompts', ctx), (prompts) => {
      let tools = lists.get(prompts);
      if (tools === undefined) lists.set(prompts, (tools = prompts.map(toolOf)));
      return tools;
    });
}

/** `list_resources` (resource links to every listed resource, and the templates) and `read_resource` (a URI's contents, embedded). */
export function toolsFromResources<C>(provider: McpProvider<C>): ToolList<C> {
  const tools: readonly McpTool<never, C>[] = [
    {
      name: 'list_resources',
      description: 'Lists the resources this server offers (as resource links) and its resource templates.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      execute: (_args: never, ctx: C) =>
        andThen(listOf(provider, 'resources', ctx), (resources) =>
          andThen(listOf(provider, 'resourceTemplates', ctx), (templates): McpToolResult => {
            const content: ContentBlock[] = resources.map((r) => ({ type: 'resource_link', uri: r.uri, name: r.name, ...(r.description !== undefined && { description: r.description }), ...(r.mimeType !== undefined && { mimeType: r.mimeType }) }));
            if (templates.length > 0) content.push({ type: 'text', text: `Templates: ${templates.map((t) => t.uriTemplate).join(', ')}` });
            return { content };
          }),
        ),
    },
    {
      name: 'read_resource',
      description: 'Reads one resource by its URI (a listed one, or one a template matches).',
      inputSchema: { type: 'object', properties: { uri: { type: 'string', description: 'The resource URI' } }, required: ['uri'] },
      annotations: { readOnlyHint: true },
      execute: (args: never, ctx: C) => {
        const uri = (args as { uri?: unknown } | undefined)?.uri;
        if (typeof uri !== 'string') throw new ToolError('read_resource needs a "uri" string');
        return andThen(resolveIn(provider, uri, ctx), (m) => {
          if (m === undefined) throw new McpResourceNotFoundError(uri);
          const value = m.resource !== undefined ? m.resource.read(ctx) : m.template.read(uri, m.variables, ctx);
          const mimeType = (m.resource ?? m.template).mimeType;
          return andThen(value, (v): McpToolResult => ({ content: embedded(uri, v, mimeType) }));
        });
      },
    },
  ];
  return () => tools;
}

function embedded(uri: string, value: McpReadResult, mimeType: string | undefined): ContentBlock[] {
  const whole = value as { contents?: unknown };
  const items = (Array.isArray(value) ? value : Array.isArray(whole.contents) ? whole.contents : [value]) as Record<string, unknown>[];
  return items.map((item) => {
    const resource: Record<string, unknown> = { ...item, uri: typeof item['uri'] === 'string' ? item['uri'] : uri };
    if (resource['mimeType'] === undefined && mimeType !== undefined) resource['mimeType'] = mimeType;
    return { type: 'resource', resource } as unknown as ContentBlock;
  });
}
