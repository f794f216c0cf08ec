import { andThen, type ProviderCatalog } from '../../registries/catalog.js';
import type { McpPromptRegistry } from '../../registries/prompts.js';
import type { McpProvider, McpProviderChange, McpResourceMatch } from '../../registries/provider.js';
import type { McpResourceRegistry } from '../../registries/resources.js';
import type { McpToolRegistry } from '../../registries/tools.js';
import type { McpPrompt, McpResource, McpResourceTemplate, McpTool } from '../../registries/types.js';
import type { RequestContext } from '../../protocol/request/context.js';
import { runMiddleware, type Middleware } from '../../protocol/request/middleware.js';

/** What of an McpServer its provider view reads (passed in by McpServer, so this file needs no server import). */
export interface ServerParts {
  readonly label: string;
  readonly tools: McpToolRegistry<RequestContext>;
  readonly resources: McpResourceRegistry<RequestContext>;
  readonly prompts: McpPromptRegistry<RequestContext>;
  readonly middleware: readonly Middleware[];
  catalog(): ProviderCatalog<RequestContext> | undefined;
  onChange(listener: (change: McpProviderChange) => void): () => void;
}

type Ctx = RequestContext;

/**
 * A server as a provider (what `mount` namespaces): its registries and its own
 * providers, each item run the way the server itself runs it — arguments
 * validated by its registry, then through its middleware (the method, params
 * and result it would see if called directly, with its own names).
 */
export function serverProvider(parts: ServerParts): McpProvider<Ctx> {
  const { tools, resources, prompts } = parts;
  const wrapped = new WeakMap<object, object>();
  const lists = new WeakMap<object, object>();
  const around = (method: string, params: Record<string, unknown>, ctx: Ctx, final: (params: Record<string, unknown>) => unknown): unknown => {
    const chain = parts.middleware;
    if (chain.length === 0) return final(params);
    return runMiddleware(chain, method, params, ctx, async (p) => final(p));
  };

  const tool = (t: McpTool<never, Ctx>): McpTool<never, Ctx> => cached<McpTool<never, Ctx>>(wrapped, t, () => ({
    ...t,
    execute: (args: never, ctx: Ctx) =>
      around('tools/call', { name: t.name, arguments: args }, ctx, (p) => {
        const input = (p['arguments'] ?? {}) as never;
        // The registry's own tool: validated by it; a tool of one of its providers runs as that provider serves it.
        return tools.get(t.name) === t ? tools.invoke(t.name, input, ctx) : t.execute(input, ctx);
      }) as ReturnType<McpTool['execute']>,
  }));
  const resource = (r: McpResource<Ctx>): McpResource<Ctx> => cached<McpResource<Ctx>>(wrapped, r, () => ({
    ...r,
    read: (ctx: Ctx) => around('resources/read', { uri: r.uri }, ctx, () => r.read(ctx)) as ReturnType<McpResource['read']>,
  }));
  const template = (t: McpResourceTemplate<Ctx>): McpResourceTemplate<Ctx> => cached<McpResourceTemplate<Ctx>>(wrapped, t, () => ({
    ...t,
    read: (uri: string, variables: Record<string, string | string[]>, ctx: Ctx) => around('resources/read', { uri }, ctx, () => t.read(uri, variables, ctx)) as ReturnType<McpResourceTemplate['read']>,
  }));
  const prompt = (p: McpPrompt<Ctx>): McpPrompt<Ctx> => cached<McpPrompt<Ctx>>(wrapped, p, () => ({
    ...p,
    get: (args: Record<string, string> | undefined, ctx: Ctx) =>
      around('prompts/get', args === undefined ? { name: p.name } : { name: p.name, arguments: args }, ctx, (q) => {
        const given = q['arguments'] as Record<string, string> | undefined;
        return prompts.get(p.name) === p ? prompts.getMessages(p.name, given, ctx) : p.get(given, ctx);
      }) as ReturnType<McpPrompt['get']>,
  }));
  const mapList = <T extends object>(list: readonly T[], wrap: (item: T) => T): readonly T[] => cached<readonly T[]>(lists, list, () => list.map(wrap));
  const match = (m: McpResourceMatch<Ctx> | undefined): McpResourceMatch<Ctx> | undefined =>
    m === undefined ? undefined : m.resource !== undefined ? { resource: resource(m.resource) } : { template: template(m.template), variables: m.variables };

  return {
    label: parts.label,
    listTools: (ctx) => andThen(parts.catalog()?.list('tools', ctx) ?? tools.list(), (list) => mapList(list, tool)),
    findTool(name, ctx) {
      if (tools.isEnabled(name)) return tool(tools.get(name)!);
      const found = parts.catalog()?.findTool(name, ctx);
      return andThen(found, (t) => (t === undefined ? undefined : tool(t)));
    },
    listResources: (ctx) => andThen(parts.catalog()?.list('resources', ctx) ?? resources.list(), (list) => mapList(list, resource)),
    listResourceTemplates: (ctx) => andThen(parts.catalog()?.list('resourceTemplates', ctx) ?? resources.templates.list(), (list) => mapList(list, template)),
    findResource(uri, ctx) {
      if (resources.isEnabled(uri)) return { resource: resource(resources.get(uri)!) };
      if (uri.length > resources.maxUriLength) return undefined;
      const own = resources.templates.match(uri);
      if (own !== undefined) return { template: template(own.entry.template), variables: own.variables };
      const found = parts.catalog()?.findResource(uri, ctx);
      return andThen(found, (f) => match(f?.match));
    },
    listPrompts: (ctx) => andThen(parts.catalog()?.list('prompts', ctx) ?? prompts.list(), (list) => mapList(list, prompt)),
    findPrompt(name, ctx) {
      if (prompts.isEnabled(name)) return prompt(prompts.get(name)!);
      return andThen(parts.catalog()?.findPrompt(name, ctx), (p) => (p === undefined ? undefined : prompt(p)));
    },
    subscribe: (uri, ctx) => andThen(parts.catalog()?.subscribe(uri, ctx), () => undefined),
    unsubscribe: (uri, ctx) => parts.catalog()?.unsubscribe(uri, ctx),
    onChange: (listener) => parts.onChange(listener),
    sessionClosed: (sessionId) => parts.catalog()?.sessionClosed(sessionId),
  };
}

function cached<T extends object>(map: WeakMap<object, object>, key: object, make: () => T): T {
  let value = map.get(key) as T | undefined;
  if (value === undefined) map.set(key, (value = make()));
  return value;
}
