import { andThen, findIn, listOf, resolveIn } from '../registries/catalog.js';
import { RegistrationError } from '../registries/checks.js';
import type { McpProvider, McpResourceMatch } from '../registries/provider.js';
import type { McpPrompt, McpResource, McpResourceTemplate, McpTool } from '../registries/types.js';
import type { ToolAnnotations } from '../wire-types/index.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import { isThenable } from '../util/thenable.js';
import { toolsFromPrompts, toolsFromResources } from './as-tools.js';
import { toolSearchOptions, toolSearchProvider, type McpToolSearchOptions } from './tool-search.js';

/** What selects items: any listed name (tools, prompts) or URI (resources, templates), any tag (`_meta.tags`), every given annotation. */
export interface McpItemFilter {
  names?: readonly string[];
  tags?: readonly string[];
  /** Tools only: each given hint must have this value (`{ readOnlyHint: true }`). */
  annotations?: ToolAnnotations;
}

export interface McpArgumentTransform {
  /** The name clients see; the tool still receives its own. */
  name?: string;
  description?: string;
  /** Removed from the schema clients see; needs `value` or `default` when the tool requires it. */
  hide?: boolean;
  /** Always passed, whatever the client sends (hidden from the schema). */
  value?: unknown;
  /** Passed when the client sends nothing (shown as the schema's `default`, no longer required). */
  default?: unknown;
}

export interface McpToolTransform {
  name?: string;
  title?: string;
  description?: string;
  /** By the tool's own argument name. */
  arguments?: Readonly<Record<string, McpArgumentTransform>>;
}

export interface McpItemTransform {
  name?: string;
  title?: string;
  description?: string;
}

export interface McpProviderTransform {
  /** Only what matches is served (before renaming: filters see the provider's own names). */
  include?: McpItemFilter;
  /** What matches is hidden: never listed, and unknown when called. */
  exclude?: McpItemFilter;
  /** By the tool's own name. */
  tools?: Readonly<Record<string, McpToolTransform>>;
  /** By the prompt's own name (`name` renames it). */
  prompts?: Readonly<Record<string, McpItemTransform>>;
  /** By the resource's URI or the template's uriTemplate (`name` is the display name, the URI stays). */
  resources?: Readonly<Record<string, Omit<McpItemTransform, 'name'> & { name?: string }>>;
  /** Adds a tool per prompt, `prompt_<name>`, for clients that only call tools. */
  promptsAsTools?: boolean;
  /** Adds `list_resources` and `read_resource` tools, for clients that only call tools. */
  resourcesAsTools?: boolean;
  /** Lists only `search_tools` and `call_tool` in place of the tools (applied last): see docs/composition.md. */
  toolSearch?: true | McpToolSearchOptions;
  /** Names the result in warnings (default: the inner provider's label). */
  label?: string;
}

const FILTER_KEYS = keysOf<McpItemFilter>({ names: true, tags: true, annotations: true });
const ARGUMENT_KEYS = keysOf<McpArgumentTransform>({ name: true, description: true, hide: true, value: true, default: true });
const TOOL_KEYS = keysOf<McpToolTransform>({ name: true, title: true, description: true, arguments: true });
const ITEM_KEYS = keysOf<McpItemTransform>({ name: true, title: true, description: true });
const TRANSFORM_KEYS = keysOf<McpProviderTransform>({ include: true, exclude: true, tools: true, prompts: true, resources: true, promptsAsTools: true, resourcesAsTools: true, toolSearch: true, label: true });
const refuse = (message: string): Error => new RegistrationError(message);

function tagsOf(item: { _meta?: Record<string, unknown> }): readonly unknown[] {
  const tags = item._meta?.['tags'];
  return Array.isArray(tags) ? tags : [];
}

function matches(filter: McpItemFilter, key: string, item: { _meta?: Record<string, unknown>; annotations?: unknown }): boolean {
  if (filter.names?.includes(key) === true) return true;
  if (filter.tags !== undefined && tagsOf(item).some((t) => typeof t === 'string' && filter.tags!.includes(t))) return true;
  const wanted = filter.annotations;
  if (wanted !== undefined && Object.keys(wanted).length > 0) {
    const has = (item.annotations ?? {}) as Record<string, unknown>;
    if (Object.entries(wanted).every(([k, v]) => has[k] === v)) return true;
  }
  return false;
}

interface CompiledTool {
  readonly transform: McpToolTransform;
  /** Client-side argument name → the tool's own. */
  readonly inbound: ReadonlyMap<string, string>;
}

/**
 * `inner` as `options` reshape it: filtered, renamed, re-described, its tools'
 * arguments renamed, hidden or defaulted, and prompts or resources offered as
 * tools. Checked here (unknown keys, clashing renames), never at call time.
 */
export function transformProvider<C>(inner: McpProvider<C>, options: McpProviderTransform): McpProvider<C> {
  refuseUnknownKeys(options, TRANSFORM_KEYS, 'transformProvider() options', refuse);
  if (options.toolSearch !== undefined) {
    const { toolSearch, ...rest } = options;
    const search = toolSearchOptions(toolSearch, 'transformProvider()');
    return toolSearchProvider(transformProvider(inner, rest), search);
  }
  for (const which of ['include', 'exclude'] as const) if (options[which] !== undefined) refuseUnknownKeys(options[which], FILTER_KEYS, `transformProvider() ${which}`, refuse);
  const tools = new Map<string, CompiledTool>();
  const toolNames = new Map<string, string>();
  for (const [own, t] of Object.entries(options.tools ?? {})) {
    refuseUnknownKeys(t, TOOL_KEYS, `transformProvider() tools["${own}"]`, refuse);
    const inbound = new Map<string, string>();
    for (const [arg, a] of Object.entries(t.arguments ?? {})) {
      refuseUnknownKeys(a, ARGUMENT_KEYS, `transformProvider() tools["${own}"].arguments["${arg}"]`, refuse);
      const shown = a.name ?? arg;
      if (inbound.has(shown)) throw new RegistrationError(`transformProvider() tools["${own}"]: two arguments would be shown as "${shown}"`);
      inbound.set(shown, arg);
    }
    tools.set(own, { transform: t, inbound });
    if (t.name !== undefined) toolNames.set(t.name, own);
  }
  const promptNames = new Map<string, string>();
  for (const [own, p] of Object.entries(options.prompts ?? {})) {
    refuseUnknownKeys(p, ITEM_KEYS, `transformProvider() prompts["${own}"]`, refuse);
    if (p.name !== undefined) promptNames.set(p.name, own);
  }
  for (const [uri, r] of Object.entries(options.resources ?? {})) refuseUnknownKeys(r, ITEM_KEYS, `transformProvider() resources["${uri}"]`, refuse);

  const kept = (key: string, item: { _meta?: Record<string, unknown>; annotations?: unknown }): boolean =>
    (options.include === undefined || matches(options.include, key, item)) && (options.exclude === undefined || !matches(options.exclude, key, item));
  const cache = new WeakMap<object, object>();
  const once = <T extends object>(key: object, make: () => T): T => {
    let value = cache.get(key) as T | undefined;
    if (value === undefined) cache.set(key, (value = make()));
    return value;
  };

  const tool = (t: McpTool<never, C>): McpTool<never, C> | undefined => {
    if (!kept(t.name, t)) return undefined;
    const compiled = tools.get(t.name);
    if (compiled === undefined) return t;
    return once(t, () => reshapeTool(t, compiled));
  };
  const prompt = (p: McpPrompt<C>): McpPrompt<C> | undefined => {
    if (!kept(p.name, p)) return undefined;
    const change = options.prompts?.[p.name];
    return change === undefined ? p : once(p, () => ({ ...p, ...defined(change) }));
  };
  const resource = <R extends McpResource<C> | McpResourceTemplate<C>>(r: R, key: string): R | undefined => {
    if (!kept(key, r)) return undefined;
    const change = options.resources?.[key];
    return change === undefined ? r : once(r, () => ({ ...r, ...defined(change) }));
  };
  const list = <T extends object>(source: readonly T[], map: (item: T) => T | undefined): readonly T[] =>
    once(source, () => source.map(map).filter((item): item is T => item !== undefined));

  // Renamed items answer to their new name only.
  const ownName = (name: string, renames: ReadonlyMap<string, string>, changes: Readonly<Record<string, { name?: string }>> | undefined): string | undefined => {
    const own = renames.get(name);
    if (own !== undefined) return own;
    return changes?.[name]?.name !== undefined ? undefined : name;
  };

  const label = options.label ?? inner.label;
  const base: McpProvider<C> = {
    ...(label !== undefined && { label }),
    listTools: (ctx) => andThen(listOf(inner, 'tools', ctx), (l) => list(l, tool)),
    findTool(name, ctx) {
      const own = ownName(name, toolNames, options.tools);
      return own === undefined ? undefined : andThen(findIn(inner, 'tools', own, ctx), (t) => (t === undefined ? undefined : tool(t)));
    },
    listResources: (ctx) => andThen(listOf(inner, 'resources', ctx), (l) => list(l, (r) => resource(r, r.uri))),
    listResourceTemplates: (ctx) => andThen(listOf(inner, 'resourceTemplates', ctx), (l) => list(l, (t) => resource(t, t.uriTemplate))),
    findResource: (uri, ctx) =>
      andThen(resolveIn(inner, uri, ctx), (m): McpResourceMatch<C> | undefined => {
        if (m === undefined) return undefined;
        if (m.resource !== undefined) {
          const r = resource(m.resource, m.resource.uri);
          return r === undefined ? undefined : { resource: r };
        }
        const t = resource(m.template, m.template.uriTemplate);
        return t === undefined ? undefined : { template: t, variables: m.variables };
      }),
    listPrompts: (ctx) => andThen(listOf(inner, 'prompts', ctx), (l) => list(l, prompt)),
    findPrompt(name, ctx) {
      const own = ownName(name, promptNames, options.prompts);
      return own === undefined ? undefined : andThen(findIn(inner, 'prompts', own, ctx), (p) => (p === undefined ? undefined : prompt(p)));
    },
  };
  // The inner tools known now are reshaped now: a bad argument transform throws here, not at listing.
  let now: ReturnType<NonNullable<McpProvider<C>['listTools']>> | undefined;
  try {
    now = inner.listTools?.(undefined);
  } catch {
    // The inner provider's own failure: the server logs it when it lists.
  }
  if (isThenable(now)) Promise.resolve(now).catch(() => undefined);
  else if (now !== undefined) list(now, tool);
  if (inner.subscribe) base.subscribe = inner.subscribe.bind(inner);
  if (inner.unsubscribe) base.unsubscribe = inner.unsubscribe.bind(inner);
  if (inner.onChange) base.onChange = inner.onChange.bind(inner);
  if (inner.sessionClosed) base.sessionClosed = inner.sessionClosed.bind(inner);
  if (options.promptsAsTools !== true && options.resourcesAsTools !== true) return base;
  return withExtraTools(base, [...(options.promptsAsTools === true ? [toolsFromPrompts(base)] : []), ...(options.resourcesAsTools === true ? [toolsFromResources(base)] : [])]);
}

/** The provider with generated tools listed after its own (the same array until either changes). */
function withExtraTools<C>(base: McpProvider<C>, extras: readonly ((ctx: C | undefined) => ReturnType<NonNullable<McpProvider<C>['listTools']>>)[]): McpProvider<C> {
  const joined = new WeakMap<readonly object[], { parts: readonly (readonly object[])[]; all: readonly McpTool<never, C>[] }>();
  const listTools = (ctx: C | undefined): ReturnType<NonNullable<McpProvider<C>['listTools']>> =>
    andThen(listOf(base, 'tools', ctx), (own) => {
      const parts: (readonly McpTool<never, C>[])[] = [];
      const collect = (i: number): ReturnType<NonNullable<McpProvider<C>['listTools']>> => {
        if (i === extras.length) {
          const hit = joined.get(own);
          if (hit !== undefined && hit.parts.length === parts.length && hit.parts.every((p, j) => p === parts[j])) return hit.all;
          const all = [...own, ...parts.flat()];
          joined.set(own, { parts: [...parts], all });
          return all;
        }
        return andThen(extras[i]!(ctx), (part) => {
          parts.push(part);
          return collect(i + 1);
        });
      };
      return collect(0);
    });
  return {
    ...base,
    listTools,
    findTool: (name, ctx) => andThen(base.findTool!(name, ctx), (found) => found ?? andThen(listTools(ctx), (all) => all.find((t) => t.name === name))),
  };
}

function defined<T extends object>(change: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(change)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** A tool with its arguments reshaped: the schema clients see, and the arguments the tool gets back. */
function reshapeTool<C>(t: McpTool<never, C>, compiled: CompiledTool): McpTool<never, C> {
  const change = compiled.transform;
  const argChanges = change.arguments ?? {};
  const schema = (t.inputSchema ?? { type: 'object' });
  const properties = { ...((schema['properties'] ?? {}) as Record<string, Record<string, unknown>>) };
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const fixed: [string, unknown][] = [];
  const defaults: [string, unknown][] = [];
  const shownProps: Record<string, unknown> = {};
  const shownRequired: string[] = [];
  for (const [own, prop] of Object.entries(properties)) {
    const a = argChanges[own];
    if (a === undefined) {
      shownProps[own] = prop;
      if (required.has(own)) shownRequired.push(own);
      continue;
    }
    if ('value' in a) {
      fixed.push([own, a.value]);
      continue;
    }
    if ('default' in a) defaults.push([own, a.default]);
    if (a.hide === true) {
      if (required.has(own) && !('default' in a)) throw new RegistrationError(`transformProvider() tools["${t.name}"].arguments["${own}"]: a required argument can be hidden only with a value or a default`);
      continue;
    }
    const shown = { ...prop, ...(a.description !== undefined && { description: a.description }), ...('default' in a && { default: a.default }) };
    shownProps[a.name ?? own] = shown;
    if (required.has(own) && !('default' in a)) shownRequired.push(a.name ?? own);
  }
  for (const own of Object.keys(argChanges)) if (!(own in properties)) throw new RegistrationError(`transformProvider() tools["${t.name}"].arguments: the tool has no argument "${own}" (it has ${Object.keys(properties).map((k) => `"${k}"`).join(', ') || 'none'})`);
  const inputSchema: Record<string, unknown> = { ...schema, properties: shownProps };
  if (shownRequired.length > 0) inputSchema['required'] = shownRequired;
  else delete inputSchema['required'];
  const inbound = compiled.inbound;
  const hidden = new Set([...fixed.map(([k]) => k), ...Object.entries(argChanges).filter(([, a]) => a.hide === true).map(([k]) => k)]);
  const execute = t.execute.bind(t);
  return {
    ...t,
    ...(change.name !== undefined && { name: change.name }),
    ...(change.title !== undefined && { title: change.title }),
    ...(change.description !== undefined && { description: change.description }),
    inputSchema,
    execute: (args: never, ctx: C) => {
      const given = (args ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(given)) {
        const own = inbound.get(key) ?? (argChanges[key]?.name === undefined ? key : undefined);
        // A hidden or fixed argument cannot be set by the client; a renamed one only under its new name.
        if (own === undefined || hidden.has(own)) continue;
        out[own] = value;
      }
      for (const [own, value] of defaults) if (out[own] === undefined) out[own] = value;
      for (const [own, value] of fixed) out[own] = value;
      return execute(out as never, ctx);
    },
  };
}
