import { andThen, findIn, listOf, resolveIn } from '../../registries/catalog.js';
import type { McpProvider, McpResourceMatch } from '../../registries/provider.js';
import type { McpPrompt, McpReadResult, McpResource, McpResourceTemplate, McpTool } from '../../registries/types.js';

/**
 * The naming rule of a mount (docs/composition.md):
 * - tools and prompts: `<namespace><separator><name>` (separator `_` by default);
 * - resource URIs and URI templates: `<namespace with _ as ->+<uri>`, the
 *   namespace becoming the first part of a compound scheme (`docs+file:///a.md`,
 *   `docs+note://{id}`). Template variables stay as they are, so a listed template
 *   can be filled in and matched after stripping the prefix.
 * The URI prefix ends with the only `+` it holds, so no mount's prefix is a
 * prefix of another's: a URI belongs to at most one mount.
 */
export interface McpNaming {
  readonly namespace: string;
  readonly separator: string;
  /** What tool and prompt names start with. */
  readonly namePrefix: string;
  /** What resource URIs and URI templates start with. */
  readonly uriPrefix: string;
}

/** A namespace: a letter, then letters, digits, `_`, `-` or `.` (valid in tool names, and as a URI scheme once `_` is `-`). */
export const NAMESPACE = /^[A-Za-z][A-Za-z0-9_.-]*$/;
/** A separator: characters valid in tool names. */
export const SEPARATOR = /^[A-Za-z0-9_.-]{1,8}$/;

export function namingOf(namespace: string, separator = '_'): McpNaming {
  return { namespace, separator, namePrefix: `${namespace}${separator}`, uriPrefix: `${namespace.replaceAll('_', '-')}+` };
}

export const prefixUri = (naming: McpNaming, uri: string): string => naming.uriPrefix + uri;
/** The child's URI, or undefined when `uri` is not under this mount. */
export const stripUri = (naming: McpNaming, uri: string): string | undefined => (uri.startsWith(naming.uriPrefix) ? uri.slice(naming.uriPrefix.length) : undefined);
export const prefixName = (naming: McpNaming, name: string): string => naming.namePrefix + name;
export const stripName = (naming: McpNaming, name: string): string | undefined => (name.startsWith(naming.namePrefix) ? name.slice(naming.namePrefix.length) : undefined);

/** A reader's value with the URIs it names moved under the mount (contents without a URI take the requested one later). */
function mapRead(naming: McpNaming, value: McpReadResult): McpReadResult {
  const one = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null) return item;
    const uri = (item as { uri?: unknown }).uri;
    return typeof uri === 'string' ? { ...item, uri: prefixUri(naming, uri) } : item;
  };
  if (Array.isArray(value)) return value.map(one) as McpReadResult;
  const contents = (value as { contents?: unknown }).contents;
  if (Array.isArray(contents)) return { ...value, contents: contents.map(one) } as unknown as McpReadResult;
  return one(value) as McpReadResult;
}

/** `inner` with every name and URI under `naming`; lookups outside it answer "not mine" at once. */
export function namespaced<C>(inner: McpProvider<C>, naming: McpNaming, label = `mount "${naming.namespace}"`): McpProvider<C> {
  const items = new WeakMap<object, object>();
  const lists = new WeakMap<readonly object[], readonly object[]>();
  const once = <T extends object>(item: T, make: () => T): T => {
    let out = items.get(item) as T | undefined;
    if (out === undefined) items.set(item, (out = make()));
    return out;
  };
  const mapList = <T extends object>(list: readonly T[], wrap: (item: T) => T): readonly T[] => {
    let out = lists.get(list) as readonly T[] | undefined;
    if (out === undefined) lists.set(list, (out = list.map(wrap)));
    return out;
  };
  const tool = (t: McpTool<never, C>): McpTool<never, C> => once(t, () => ({ ...t, name: prefixName(naming, t.name) }));
  const prompt = (p: McpPrompt<C>): McpPrompt<C> => once(p, () => ({ ...p, name: prefixName(naming, p.name) }));
  const resource = (r: McpResource<C>): McpResource<C> => once(r, () => ({ ...r, uri: prefixUri(naming, r.uri), read: (ctx: C) => andThen(r.read(ctx), (v) => mapRead(naming, v)) }));
  const template = (t: McpResourceTemplate<C>): McpResourceTemplate<C> =>
    once(t, () => ({
      ...t,
      uriTemplate: prefixUri(naming, t.uriTemplate),
      read: (uri: string, variables: Record<string, string | string[]>, ctx: C) => andThen(t.read(stripUri(naming, uri) ?? uri, variables, ctx), (v) => mapRead(naming, v)),
    }));
  const match = (m: McpResourceMatch<C> | undefined): McpResourceMatch<C> | undefined =>
    m === undefined ? undefined : m.resource !== undefined ? { resource: resource(m.resource) } : { template: template(m.template), variables: m.variables };

  const provider: McpProvider<C> = {
    label,
    listTools: (ctx) => andThen(listOf(inner, 'tools', ctx), (list) => mapList(list, tool)),
    findTool(name, ctx) {
      const own = stripName(naming, name);
      return own === undefined ? undefined : andThen(findIn(inner, 'tools', own, ctx), (t) => (t === undefined ? undefined : tool(t)));
    },
    listResources: (ctx) => andThen(listOf(inner, 'resources', ctx), (list) => mapList(list, resource)),
    listResourceTemplates: (ctx) => andThen(listOf(inner, 'resourceTemplates', ctx), (list) => mapList(list, template)),
    findResource(uri, ctx) {
      const own = stripUri(naming, uri);
      return own === undefined ? undefined : andThen(resolveIn(inner, own, ctx), match);
    },
    listPrompts: (ctx) => andThen(listOf(inner, 'prompts', ctx), (list) => mapList(list, prompt)),
    findPrompt(name, ctx) {
      const own = stripName(naming, name);
      return own === undefined ? undefined : andThen(findIn(inner, 'prompts', own, ctx), (p) => (p === undefined ? undefined : prompt(p)));
    },
  };
  if (inner.subscribe) {
    const subscribe = inner.subscribe.bind(inner);
    provider.subscribe = (uri, ctx) => {
      const own = stripUri(naming, uri);
      return own === undefined ? undefined : subscribe(own, ctx);
    };
  }
  if (inner.unsubscribe) {
    const unsubscribe = inner.unsubscribe.bind(inner);
    provider.unsubscribe = (uri, ctx) => {
      const own = stripUri(naming, uri);
      return own === undefined ? undefined : unsubscribe(own, ctx);
    };
  }
  if (inner.sessionClosed) provider.sessionClosed = inner.sessionClosed.bind(inner);
  if (inner.onChange) {
    const onChange = inner.onChange.bind(inner);
    provider.onChange = (listener) => onChange((change) => listener(change.type === 'resource_updated' ? { ...change, uri: prefixUri(naming, change.uri) } : change));
  }
  return provider;
}
