import type { McpResourceRegistry } from '../../registries/resources.js';
import type { McpReadResult, McpResource, McpResourceTemplate } from '../../registries/types.js';
import type { RequestContext } from '../context.js';
import { paginate } from '../pagination.js';
import { cachedView, capability, permitted, pick, requireString, type MethodEntry } from './shared.js';

type Registry = McpResourceRegistry<RequestContext>;
const RESOURCE_FIELDS = ['title', 'description', 'mimeType', 'size', 'icons', 'annotations', '_meta'] as const;
const TEMPLATE_FIELDS = ['title', 'description', 'mimeType', 'icons', 'annotations', '_meta'] as const;
const resourceViews = new WeakMap<Registry, { version: number; view: Record<string, unknown>[] }>();
const templateViews = new WeakMap<Registry['templates'], { version: number; view: Record<string, unknown>[] }>();

function wireResource(resource: McpResource<RequestContext>): Record<string, unknown> {
  return pick(resource, RESOURCE_FIELDS, { uri: resource.uri, name: resource.name });
}

function wireTemplate(template: McpResourceTemplate<RequestContext>): Record<string, unknown> {
  return pick(template, TEMPLATE_FIELDS, { uriTemplate: template.uriTemplate, name: template.name });
}

export const listResources: MethodEntry = {
  available: (handler) => capability(handler, 'resources'),
  handle(params, context, handler) {
    const registry = handler.deps.resources;
    const all = permitted(cachedView(resourceViews, registry, () => registry.list().map(wireResource)), registry.list(), context);
    const { page, nextCursor } = paginate(all, params['cursor'], handler.deps.options?.pageSize);
    return nextCursor === undefined ? { resources: page } : { resources: page, nextCursor };
  },
};

export const listTemplates: MethodEntry = {
  available: (handler) => capability(handler, 'resources'),
  handle(params, context, handler) {
    const registry = handler.deps.resources.templates;
    const all = permitted(cachedView(templateViews, registry, () => registry.list().map(wireTemplate)), registry.list(), context);
    const { page, nextCursor } = paginate(all, params['cursor'], handler.deps.options?.pageSize);
    return nextCursor === undefined ? { resourceTemplates: page } : { resourceTemplates: page, nextCursor };
  },
};

/** Normalises what a reader returned into `contents[]`, each entry naming its URI. */
export function toReadResult(uri: string, value: McpReadResult, mimeType: string | undefined): Record<string, unknown> {
  if (isResultObject(value)) return value;
  const items = Array.isArray(value) ? value : [value];
  const contents = items.map((item: Record<string, unknown>) => {
    const entry: Record<string, unknown> = { ...item, uri: typeof item['uri'] === 'string' ? item['uri'] : uri };
    if (entry['mimeType'] === undefined && mimeType !== undefined) entry['mimeType'] = mimeType;
    return entry;
  });
  return { contents };
}

/** A reader may also return a whole result (`{ contents }` or an InputRequiredResult). */
function isResultObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (Array.isArray((value as Record<string, unknown>)['contents']) || (value as Record<string, unknown>)['resultType'] !== undefined);
}

export const readResource: MethodEntry = {
  available: (handler) => capability(handler, 'resources'),
  async handle(params, context, handler) {
    const uri = requireString(params, 'uri');
    const registry = handler.deps.resources;
    const value = await registry.read(uri, context);
    const mimeType = registry.get(uri)?.mimeType ?? registry.templates.match(uri)?.entry.template.mimeType;
    return toReadResult(uri, value, mimeType);
  },
};
