/**
 * The derived tools as a composition provider (src/registries/provider.ts): `server.provide()`
 * serves it, `server.mount()` namespaces it, `transformProvider()` reshapes it. The list is
 * built once; arguments are validated here (a provider's `execute` gets them raw).
 */
import { ToolInputError } from '../errors/classes.js';
import type { RequestContext } from '../protocol/request/context.js';
import type { McpProvider } from '../registries/provider.js';
import type { McpTool, McpToolResult } from '../registries/types.js';
import { compileSchema, type CompiledSchema } from '../schema/index.js';
import { loadOpenApiDocument, type OpenApiDocument, type OpenApiSource } from './load.js';
import { splitOptions, type OpenApiOptions } from './server.js';
import { openApiTools, type OpenApiTool } from './tools.js';

function providerTool(tool: OpenApiTool): McpTool<never, RequestContext> {
  let input: CompiledSchema | undefined;
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(tool.description !== undefined && { description: tool.description }),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
    annotations: tool.annotations,
    timeoutMs: tool.timeoutMs,
    execute: async (raw: never, ctx: RequestContext) => {
      input ??= compileSchema(tool.inputSchema);
      const checked = await input.validate(raw ?? {});
      if (!checked.ok) throw new ToolInputError(checked.message);
      return (await tool.call(checked.value as Record<string, unknown>, { signal: ctx.signal, timedBySignal: true })) as unknown as McpToolResult;
    },
  };
}

/** Loads `source` and answers a provider of its operations as tools (`label`: the document's title). */
export async function openApiProvider(source: OpenApiSource | OpenApiDocument, options: OpenApiOptions): Promise<McpProvider<RequestContext>> {
  const { load, tools: toolOptions } = splitOptions(options);
  const doc = typeof source === 'object' && !(source instanceof URL) && 'root' in source && 'version' in source ? (source as OpenApiDocument) : await loadOpenApiDocument(source, load);
  const tools: readonly McpTool<never, RequestContext>[] = Object.freeze(openApiTools(doc, toolOptions).map(providerTool));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const info = doc.root['info'] as { title?: unknown } | undefined;
  return {
    label: `openapi ${typeof info?.title === 'string' ? JSON.stringify(info.title) : (doc.source ?? 'document')}`,
    listTools: () => tools,
    findTool: (name) => byName.get(name),
  };
}
