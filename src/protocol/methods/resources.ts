import type { McpReadResult, McpResource, McpResourceTemplate } from '../../registries/types.js';
import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult, ResourceDescription, ResourceTemplateDescription } from '../../wire-types/index.js';
import type { RequestContext } from '../request/context.js';
import { BOTH_ERAS, RESOURCE_TARGET } from '../wire/method-facts.js';
import { catalogPage, declares, pick, requireString, uriScopes, type RequestMethod } from './shared.js';
import { invalidResultError, readResultProblem, readReturnProblem } from './result-checks.js';

const RESOURCE_FIELDS = ['title', 'description', 'mimeType', 'size', 'icons', 'annotations', '_meta'] as const;
const TEMPLATE_FIELDS = ['title', 'description', 'mimeType', 'icons', 'annotations', '_meta'] as const;

function wireResource(resource: McpResource<RequestContext>): ResourceDescription {
  return pick(resource, RESOURCE_FIELDS, { uri: resource.uri, name: resource.name });
}

function wireTemplate(template: McpResourceTemplate<RequestContext>): ResourceTemplateDescription {
  return pick(template, TEMPLATE_FIELDS, { uriTemplate: template.uriTemplate, name: template.name });
}

export const listResources: RequestMethod<'resources/list', { cursor?: string }, ListResourcesResult> = {
  method: 'resources/list',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: declares('resources'),
  cacheable: true,
  handle: (params, context) => catalogPage(context, params, 'resources', 'resources', context.server.resources, wireResource),
};

export const listTemplates: RequestMethod<'resources/templates/list', { cursor?: string }, ListResourceTemplatesResult> = {
  method: 'resources/templates/list',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: declares('resources'),
  cacheable: true,
  handle: (params, context) => catalogPage(context, params, 'resourceTemplates', 'resourceTemplates', context.server.resources.templates, wireTemplate),
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

export const readResource: RequestMethod<'resources/read', { uri: string }, ReadResourceResult> = {
  method: 'resources/read',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: declares('resources'),
  cacheable: true,
  asksClient: true,
  routingName: 'uri',
  target: RESOURCE_TARGET,
  scopes: uriScopes,
  async handle(params, context) {
    const uri = requireString(params, 'uri');
    const registry = context.server.resources;
    const catalog = context.server.catalog;
    const read = catalog === undefined ? undefined : await catalog.readResource(uri, context);
    const value: unknown = read === undefined ? await registry.read(uri, context) : read.value;
    const who = `resource "${uri}"`;
    const raw = readReturnProblem(value);
    if (raw !== undefined) throw invalidResultError(context.server.logger, who, value, raw);
    const mimeType = read !== undefined ? read.mimeType : (registry.get(uri)?.mimeType ?? registry.templates.match(uri)?.entry.template.mimeType);
    const result = toReadResult(uri, value as McpReadResult, mimeType);
    const problem = readResultProblem(result);
    if (problem !== undefined) throw invalidResultError(context.server.logger, who, value, problem);
    return result;
  },
};
