import { McpPromptArgumentError, McpPromptNotFoundError, McpResourceNotFoundError, McpToolNotFoundError, McpUriTooLongError } from '../errors/classes.js';
import { isThenable } from '../util/thenable.js';
import type { McpPromptRegistry } from './prompts.js';
import type { MaybePromise, McpProvider, McpResourceMatch } from './provider.js';
import type { McpResourceRegistry } from './resources.js';
import type { McpToolRegistry } from './tools.js';
import type { McpPrompt, McpReadResult, McpResource, McpResourceTemplate, McpTool } from './types.js';
import type { McpPromptMessage, McpToolResult } from '../wire-types/index.js';
import { UriTemplate } from './uri-template.js';

/** The server's own registries: always the first provider, asked directly (no wrapper, no promise). */
export interface LocalRegistries<C> {
  readonly tools: McpToolRegistry<C>;
  readonly resources: McpResourceRegistry<C>;
  readonly prompts: McpPromptRegistry<C>;
}

type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';
interface ItemOf<C> {
  tools: McpTool<never, C>;
  resources: McpResource<C>;
  resourceTemplates: McpResourceTemplate<C>;
  prompts: McpPrompt<C>;
}

const KEY: { readonly [K in ListKind]: (item: ItemOf<unknown>[K]) => string } = {
  tools: (t) => t.name,
  resources: (r) => r.uri,
  resourceTemplates: (t) => t.uriTemplate,
  prompts: (p) => p.name,
};

const LISTER = { tools: 'listTools', resources: 'listResources', resourceTemplates: 'listResourceTemplates', prompts: 'listPrompts' } as const;

/** The first answer that is not `undefined`, asking in order; synchronous while every answer is. */
export function firstOf<P, T>(items: readonly P[], ask: (item: P) => MaybePromise<T | undefined>, start = 0): MaybePromise<T | undefined> {
  for (let i = start; i < items.length; i++) {
    const answer = ask(items[i]!);
    if (isThenable(answer)) return Promise.resolve(answer).then((value) => (value !== undefined ? value : firstOf(items, ask, i + 1)));
    if (answer !== undefined) return answer;
  }
  return undefined;
}

/**
 * What a server serves: its own registries, then each added provider, in the
 * order they were added. The first that has a name or URI answers for it, and
 * merged lists leave out a later duplicate, so listing and lookup agree.
 */
export class ProviderCatalog<C> {
  readonly #local: LocalRegistries<C>;
  readonly #providers: McpProvider<C>[] = [];
  #own = 0;
  readonly #merged = new Map<ListKind, { version: number; items: readonly unknown[] }>();

  constructor(local: LocalRegistries<C>) {
    this.#local = local;
  }

  get providers(): readonly McpProvider<C>[] {
    return this.#providers;
  }

  /** Grows on every change of a registry or a provider's list: merged views are valid while it holds. */
  get version(): number {
    const { tools, resources, prompts } = this.#local;
    return tools.version + resources.version + resources.templates.version + prompts.version + this.#own;
  }

  /** Call when a provider's list changed (its change event), or it was added or removed. */
  changed(): void {
    this.#own++;
  }

  add(provider: McpProvider<C>): void {
    this.#providers.push(provider);
    this.changed();
  }

  remove(provider: McpProvider<C>): boolean {
    const index = this.#providers.indexOf(provider);
    if (index < 0) return false;
    this.#providers.splice(index, 1);
    this.changed();
    return true;
  }

  /** One provider's list (no provider member: empty). */
  listOf<K extends ListKind>(provider: McpProvider<C>, kind: K, context: C | undefined): MaybePromise<readonly ItemOf<C>[K][]> {
    return listOf(provider, kind, context);
  }

  #localList<K extends ListKind>(kind: K): readonly ItemOf<C>[K][] {
    const local = this.#local;
    const list = kind === 'tools' ? local.tools.list() : kind === 'resources' ? local.resources.list() : kind === 'resourceTemplates' ? local.resources.templates.list() : local.prompts.list();
    return list as unknown as readonly ItemOf<C>[K][];
  }

  /**
   * Every provider's list after the registries', a later duplicate left out.
   * Cached per version when every provider answered synchronously.
   */
  list<K extends ListKind>(kind: K, context: C | undefined): MaybePromise<readonly ItemOf<C>[K][]> {
    const version = this.version;
    const cached = this.#merged.get(kind);
    if (cached?.version === version) return cached.items as readonly ItemOf<C>[K][];
    const parts: MaybePromise<readonly ItemOf<C>[K][]>[] = [this.#localList(kind)];
    let pending = false;
    for (const provider of this.#providers) {
      const part = this.#guard(() => this.listOf(provider, kind, context), provider, kind);
      if (isThenable(part)) pending = true;
      parts.push(part);
    }
    if (!pending) {
      const items = merge(kind, parts as readonly (readonly ItemOf<C>[K][])[]);
      this.#merged.set(kind, { version, items });
      return items;
    }
    return Promise.all(parts.map(async (part) => part)).then((lists) => merge(kind, lists));
  }

  /** A provider whose list fails is left out of the merged list (and logged by the caller's listener), never failing the others. */
  #guard<T>(ask: () => MaybePromise<readonly T[]>, provider: McpProvider<C>, kind: ListKind): MaybePromise<readonly T[]> {
    const failed = (error: unknown): readonly T[] => {
      this.onListError?.(provider, kind, error);
      return [];
    };
    try {
      const answer = ask();
      return isThenable(answer) ? Promise.resolve(answer).then(undefined, failed) : answer;
    } catch (error) {
      return failed(error);
    }
  }

  /** Told when a provider's list failed (the server logs it). */
  onListError: ((provider: McpProvider<C>, kind: ListKind, error: unknown) => void) | undefined;

  #find<K extends 'tools' | 'prompts'>(provider: McpProvider<C>, kind: K, name: string, context: C | undefined): MaybePromise<ItemOf<C>[K] | undefined> {
    return findIn(provider, kind, name, context);
  }

  /** A provider's tool (not the registries'). */
  findTool(name: string, context: C | undefined): MaybePromise<McpTool<never, C> | undefined> {
    return firstOf(this.#providers, (p) => this.#find(p, 'tools', name, context));
  }

  findPrompt(name: string, context: C | undefined): MaybePromise<McpPrompt<C> | undefined> {
    return firstOf(this.#providers, (p) => this.#find(p, 'prompts', name, context));
  }

  /** What a provider serves `uri` with: its `findResource`, else its listed resources, then its listed templates. */
  matchIn(provider: McpProvider<C>, uri: string, context: C | undefined): MaybePromise<McpResourceMatch<C> | undefined> {
    return resolveIn(provider, uri, context);
  }

  /** The provider that serves `uri`, with its match (registries excluded); within `maxUriLength`. */
  findResource(uri: string, context: C | undefined): MaybePromise<{ provider: McpProvider<C>; match: McpResourceMatch<C> } | undefined> {
    if (uri.length > this.#local.resources.maxUriLength) return undefined;
    return firstOf(this.#providers, (provider) => andThen(this.matchIn(provider, uri, context), (match) => (match === undefined ? undefined : { provider, match })));
  }

  // --- What the protocol methods ask when the server has providers ---

  /** Synchronously known tool (registries, then providers that answer without a promise): scopes, timeout, task support. */
  peekTool(name: string): McpTool<never, C> | undefined {
    const tools = this.#local.tools;
    if (tools.isEnabled(name)) return tools.get(name);
    const found = this.findTool(name, undefined);
    return isThenable(found) ? undefined : found;
  }

  peekPrompt(name: string): McpPrompt<C> | undefined {
    const prompts = this.#local.prompts;
    if (prompts.isEnabled(name)) return prompts.get(name);
    const found = this.findPrompt(name, undefined);
    return isThenable(found) ? undefined : found;
  }

  /** The scopes of what serves `uri`, when known synchronously. */
  peekResource(uri: string): { scopes?: readonly string[] } | undefined {
    const found = this.findResource(uri, undefined);
    if (found === undefined || isThenable(found)) return undefined;
    return found.match.resource ?? found.match.template;
  }

  callTool(name: string, args: Record<string, unknown>, context: C): MaybePromise<McpToolResult> {
    const tools = this.#local.tools;
    if (tools.isEnabled(name)) return tools.invoke(name, args, context);
    return andThen(this.findTool(name, context), (tool) => {
      if (tool === undefined) throw new McpToolNotFoundError(name);
      return tool.execute(args as never, context);
    });
  }

  /** The reader's value and the mimeType to default its contents to. */
  readResource(uri: string, context: C): MaybePromise<{ value: McpReadResult; mimeType: string | undefined }> {
    const resources = this.#local.resources;
    const own = resources.isEnabled(uri) ? resources.get(uri) : uri.length <= resources.maxUriLength ? resources.templates.match(uri)?.entry.template : undefined;
    if (own !== undefined) return resources.read(uri, context).then((value) => ({ value, mimeType: own.mimeType }));
    if (uri.length > resources.maxUriLength) throw new McpUriTooLongError(uri, resources.maxUriLength);
    return andThen(this.findResource(uri, context), (found) => {
      if (found === undefined) throw new McpResourceNotFoundError(uri);
      const { resource, template, variables } = found.match;
      const value = resource !== undefined ? resource.read(context) : template.read(uri, variables, context);
      const mimeType = (resource ?? template).mimeType;
      return andThen(value, (v) => ({ value: v, mimeType }));
    });
  }

  /** Whether a client may subscribe to `uri`; tells the provider that serves it. */
  subscribe(uri: string, context: C): MaybePromise<boolean> {
    const resources = this.#local.resources;
    if (resources.isEnabled(uri) || (uri.length <= resources.maxUriLength && resources.templates.match(uri) !== undefined)) return true;
    return andThen(this.findResource(uri, context), (found) => {
      if (found === undefined) return false;
      const told = found.provider.subscribe?.(uri, context);
      return andThen(told, () => true);
    });
  }

  /** Tells every provider that `sessionId` closed; a provider that fails is that provider's affair. */
  sessionClosed(sessionId: string): void {
    for (const provider of this.#providers) {
      try {
        const told = provider.sessionClosed?.(sessionId);
        if (isThenable(told)) Promise.resolve(told).catch(() => undefined);
      } catch {
        // one provider's failure never keeps the others from hearing it
      }
    }
  }

  unsubscribe(uri: string, context: C | undefined): void {
    if (this.#providers.length === 0) return;
    const found = this.findResource(uri, context);
    const tell = (f: { provider: McpProvider<C> } | undefined): void => {
      const told = f?.provider.unsubscribe?.(uri, context);
      if (isThenable(told)) Promise.resolve(told).catch(() => undefined);
    };
    if (isThenable(found)) Promise.resolve(found).then(tell, () => undefined);
    else tell(found);
  }

  getPrompt(name: string, args: Record<string, string> | undefined, context: C): MaybePromise<{ messages: readonly McpPromptMessage[]; description: string | undefined }> {
    const prompts = this.#local.prompts;
    if (prompts.isEnabled(name)) return prompts.getMessages(name, args, context).then((messages) => ({ messages, description: prompts.get(name)?.description }));
    return andThen(this.findPrompt(name, context), (prompt) => {
      if (prompt === undefined) throw new McpPromptNotFoundError(name);
      const missing = (prompt.arguments ?? []).filter((a) => a.required === true && typeof args?.[a.name] !== 'string').map((a) => a.name);
      if (missing.length > 0) throw new McpPromptArgumentError(name, missing);
      return andThen(prompt.get(args, context), (messages) => ({ messages, description: prompt.description }));
    });
  }

  /** The prompt a completion names (registries first). */
  promptFor(name: string, context: C): MaybePromise<McpPrompt<C> | undefined> {
    const prompts = this.#local.prompts;
    if (prompts.isEnabled(name)) return prompts.get(name);
    return this.findPrompt(name, context);
  }

  /** The template (by its uriTemplate) or the static resource a completion names; undefined when nothing has it. */
  templateFor(uriTemplate: string, context: C): MaybePromise<{ template: McpResourceTemplate<C> | undefined } | undefined> {
    const resources = this.#local.resources;
    const templates = resources.templates;
    if (templates.isEnabled(uriTemplate)) return { template: templates.get(uriTemplate) };
    if (resources.has(uriTemplate)) return { template: undefined };
    return firstOf(this.#providers, (provider) =>
      andThen(this.listOf(provider, 'resourceTemplates', context), (list): MaybePromise<{ template: McpResourceTemplate<C> | undefined } | undefined> => {
        const template = inList<C, 'resourceTemplates'>(list, 'resourceTemplates', uriTemplate);
        if (template !== undefined) return { template };
        return andThen(this.listOf(provider, 'resources', context), (listed) => (inList<C, 'resources'>(listed, 'resources', uriTemplate) !== undefined ? { template: undefined } : undefined));
      }),
    );
  }
}

/** One provider's list (no such member: empty). */
export function listOf<C, K extends ListKind>(provider: McpProvider<C>, kind: K, context: C | undefined): MaybePromise<readonly ItemOf<C>[K][]> {
  const lister = provider[LISTER[kind]] as ((context: C | undefined) => MaybePromise<readonly ItemOf<C>[K][]>) | undefined;
  return lister === undefined ? [] : lister.call(provider, context);
}

/**
 * A provider's list when it can be had synchronously; undefined when it throws or answers with a
 * promise (that promise's failure is swallowed here and logged when the server asks after a change).
 * Mount-time checks use it: they judge what is known now, and never leave an unhandled rejection.
 */
export function listedNow<C, K extends ListKind>(provider: McpProvider<C>, kind: K): readonly ItemOf<C>[K][] | undefined {
  let list: MaybePromise<readonly ItemOf<C>[K][]>;
  try {
    list = listOf(provider, kind, undefined);
  } catch {
    return undefined;
  }
  if (!isThenable(list)) return list;
  Promise.resolve(list).catch(() => undefined);
  return undefined;
}


// Indexes of lists by identity: a provider answers the same array until its list changes.
const byKey = new WeakMap<readonly unknown[], Map<string, unknown>>();
const matchers = new WeakMap<readonly unknown[], UriTemplate[]>();

function inList<C, K extends ListKind>(list: readonly ItemOf<C>[K][], kind: K, key: string): ItemOf<C>[K] | undefined {
  let index = byKey.get(list);
  if (index === undefined) {
    index = new Map();
    for (const item of list) if (!index.has(KEY[kind](item as never))) index.set(KEY[kind](item as never), item);
    byKey.set(list, index);
  }
  return index.get(key) as ItemOf<C>[K] | undefined;
}

/** A provider's tool or prompt by name: its `find*`, else its list. */
export function findIn<C, K extends 'tools' | 'prompts'>(provider: McpProvider<C>, kind: K, name: string, context: C | undefined): MaybePromise<ItemOf<C>[K] | undefined> {
  if (kind === 'tools' && provider.findTool !== undefined) return provider.findTool(name, context) as MaybePromise<ItemOf<C>[K] | undefined>;
  if (kind === 'prompts' && provider.findPrompt !== undefined) return provider.findPrompt(name, context) as MaybePromise<ItemOf<C>[K] | undefined>;
  return andThen(listOf(provider, kind, context), (list) => inList(list, kind, name));
}

/** What a provider serves `uri` with: its `findResource`, else its listed resources, then its listed templates (in order). */
export function resolveIn<C>(provider: McpProvider<C>, uri: string, context: C | undefined): MaybePromise<McpResourceMatch<C> | undefined> {
  if (provider.findResource !== undefined) return provider.findResource(uri, context);
  return andThen(listOf(provider, 'resources', context), (resources): MaybePromise<McpResourceMatch<C> | undefined> => {
    const resource = inList(resources, 'resources', uri);
    if (resource !== undefined) return { resource };
    return andThen(listOf(provider, 'resourceTemplates', context), (templates) => matchTemplate(templates, uri));
  });
}

function matchTemplate<C>(templates: readonly McpResourceTemplate<C>[], uri: string): McpResourceMatch<C> | undefined {
  let compiled = matchers.get(templates);
  if (compiled === undefined) matchers.set(templates, (compiled = templates.map((t) => new UriTemplate(t.uriTemplate))));
  for (let i = 0; i < templates.length; i++) {
    const variables = compiled[i]!.match(uri);
    if (variables) return { template: templates[i]!, variables };
  }
  return undefined;
}

export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}

function merge<K extends ListKind, T>(kind: K, lists: readonly (readonly T[])[]): readonly T[] {
  if (lists.length === 1) return lists[0]!;
  const seen = new Set<string>();
  const items: T[] = [];
  for (const list of lists) {
    for (const item of list) {
      const key = KEY[kind](item as never);
      if (seen.has(key)) continue;
      seen.add(key);
      items.push(item);
    }
  }
  return items;
}

export type { ListKind as McpProviderListKind };

/** One name or URI two providers both serve: the earlier (`kept`) answers for it, the later is hidden. */
export interface McpShadowed {
  readonly kind: ListKind;
  readonly key: string;
  readonly kept: string;
  readonly hidden: string;
}

/**
 * The names and URIs a later provider serves but an earlier one already does
 * (the registries count as `this server`). Providers answering asynchronously
 * are skipped: their lists are checked when they answer (the server asks after each change).
 */
export function shadowedIn<C>(catalog: ProviderCatalog<C>, kinds: readonly ListKind[], local: LocalRegistries<C>): McpShadowed[] {
  const found: McpShadowed[] = [];
  for (const kind of kinds) {
    const owner = new Map<string, string>();
    const own = kind === 'tools' ? local.tools.list() : kind === 'resources' ? local.resources.list() : kind === 'resourceTemplates' ? local.resources.templates.list() : local.prompts.list();
    for (const item of own) owner.set(KEY[kind](item as never), 'this server');
    catalog.providers.forEach((provider, index) => {
      const label = provider.label ?? `provider #${index + 1}`;
      const list = listedNow(provider, kind);
      if (list === undefined) return;
      for (const item of list) {
        const key = KEY[kind](item as never);
        const kept = owner.get(key);
        if (kept === undefined) owner.set(key, label);
        else found.push({ kind, key, kept, hidden: label });
      }
    });
  }
  return found;
}
