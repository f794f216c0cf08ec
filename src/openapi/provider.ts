/**
 * The derived tools (and, with `routes`, resources and resource templates) as a composition provider (src/registries/provider.ts): `server.provide()`
 * serves it, `server.mount()` namespaces it, `transformProvider()` reshapes it. The list is
 * built once; arguments are validated here (a provider's `execute` gets them raw).
 */
import { ToolInputError } from '../errors/classes.js';
import type { RequestContext } from '../protocol/request/context.js';
import type { McpProvider, McpResourceMatch } from '../registries/provider.js';
import type { McpResource, McpTool } from '../registries/types.js';
import type { McpToolResult } from '../wire-types/index.js';
import { UriTemplate } from '../registries/uri-template.js';
import { compileSchema, type CompiledSchema } from '../schema/index.js';
import { loadDocumentForTools, type OpenApiDocument, type OpenApiSource } from './load.js';
import { splitOptions, type OpenApiOptions } from './server.js';
import { openApiRoutes, type OpenApiTool } from './tools.js';

const described = (r: { name: string; title?: string; description?: string; mimeType?: string }): { name: string; title?: string; description?: string; mimeType?: string } => ({
  name: r.name,
  ...(r.title !== undefined && { title: r.title }),
  ...(r.description !== undefined && { description: r.description }),
  ...(r.mimeType !== undefined && { mimeType: r.mimeType }),
});

function providerTool(tool: OpenApiTool): McpTool<never, RequestContext> {
  let input: CompiledSchema | undefined;
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(tool.description !== undefined && { description: tool.description }),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
    annotations: tool.annotations,
    // The server enforces it too, but a wrapper in a composition may drop the field: the call keeps its own timer.
    timeoutMs: tool.timeoutMs,
    execute: async (raw: never, ctx: RequestContext) => {
      input ??= compileSchema(tool.inputSchema);
      const checked = await input.validate(raw ?? {});
      if (!checked.ok) throw new ToolInputError(checked.message);
      return (await tool.call(checked.value as Record<string, unknown>, { signal: ctx.signal })) as unknown as McpToolResult;
    },
  };
}

/** Loads `source` and answers a provider of its operations as tools (`label`: the document's title). */
export async function openApiProvider(source: OpenApiSource | OpenApiDocument, options: OpenApiOptions): Promise<McpProvider<RequestContext>> {
  const { load, tools: toolOptions } = splitOptions(options);
  const doc = typeof source === 'object' && !(source instanceof URL) && 'root' in source && 'version' in source ? (source as OpenApiDocument) : await loadDocumentForTools(source, load);
  const routes = openApiRoutes(doc, toolOptions);
  const tools: readonly McpTool<never, RequestContext>[] = Object.freeze(routes.tools.map(providerTool));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const resources: readonly McpResource<RequestContext>[] = Object.freeze(
    routes.resources.map((r) => ({ ...described(r), uri: r.uri, read: (ctx: RequestContext) => r.read({ signal: ctx.signal }) })),
  );
  const byUri = new Map(resources.map((r) => [r.uri, r]));
  const templates = routes.templates.map((t) => ({
    matcher: new UriTemplate(t.uriTemplate),
    template: Object.freeze({ ...described(t), uriTemplate: t.uriTemplate, read: (uri: string, variables: Record<string, string | string[]>, ctx: RequestContext) => t.read(uri, variables, { signal: ctx.signal }) }),
  }));
  const templateList = Object.freeze(templates.map((t) => t.template));
  const info = doc.root['info'] as { title?: unknown } | undefined;
  return {
    label: `openapi ${typeof info?.title === 'string' ? JSON.stringify(info.title) : (doc.source ?? 'document')}`,
    listTools: () => tools,
    findTool: (name) => byName.get(name),
    ...(resources.length > 0 && { listResources: () => resources }),
    ...(templates.length > 0 && { listResourceTemplates: () => templateList }),
    ...((resources.length > 0 || templates.length > 0) && {
      findResource: (uri: string): McpResourceMatch<RequestContext> | undefined => {
        const resource = byUri.get(uri);
        if (resource !== undefined) return { resource };
        for (const { matcher, template } of templates) {
          const variables = matcher.match(uri);
          if (variables !== undefined) return { template, variables };
        }
        return undefined;
      },
    }),
  };
}
