/** The derived tools on an McpServer, through its public authoring API (`server.tool`). */
import type { McpToolResult } from '../wire-types/index.js';
import type { McpServer } from '../server/server.js';
import { OpenApiError } from './errors.js';
import { lazyJsonSchema } from './lazy-schema.js';
import { loadDocumentForTools, type LoadOptions, type OpenApiDocument, type OpenApiSource } from './load.js';
import { openApiRoutes, TOOL_OPTION_KEYS, type OpenApiTool, type OpenApiToolOptions } from './tools.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export interface OpenApiOptions extends OpenApiToolOptions, Pick<LoadOptions, 'maxDocumentBytes'> {}

const LOAD_KEYS = keysOf<LoadOptions>({ maxDocumentBytes: true, fetch: true, timeoutMs: true });
export const OPTION_KEYS: readonly string[] = [...new Set([...TOOL_OPTION_KEYS, ...LOAD_KEYS])];

/** Splits the combined options: `fetch` and `timeoutMs` serve both the document download and the calls. */
export function splitOptions(options: OpenApiOptions): { load: LoadOptions; tools: OpenApiToolOptions } {
  refuseUnknownKeys(options, OPTION_KEYS, 'OpenAPI options', (m) => new OpenApiError(m));
  const { maxDocumentBytes, ...tools } = options;
  const load: LoadOptions = {
    ...(maxDocumentBytes !== undefined && { maxDocumentBytes }),
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  };
  return { load, tools };
}

/**
 * Loads `source` (a document object, JSON/YAML text, a file path or a URL) and registers one
 * tool per kept operation on `server` (with `routes`, some GETs as resources and resource
 * templates instead). Returns the tools, in document order.
 */
export async function addOpenApiTools(server: McpServer, source: OpenApiSource | OpenApiDocument, options: OpenApiOptions): Promise<OpenApiTool[]> {
  const { load, tools: toolOptions } = splitOptions(options);
  const doc = isLoaded(source) ? source : await loadDocumentForTools(source, load);
  const { tools, resources, templates } = openApiRoutes(doc, toolOptions);
  for (const tool of tools) registerTool(server, tool);
  // With `routes`: the GET operations routed to resources and templates.
  for (const r of resources) server.resource(r.uri, described(r), (ctx) => r.read({ signal: ctx.signal }));
  for (const t of templates) server.resourceTemplate(t.uriTemplate, described(t), (uri, variables, ctx) => t.read(uri, variables, { signal: ctx.signal }));
  return tools;
}

function described(r: { name: string; title?: string; description?: string; mimeType?: string }): { name: string; title?: string; description?: string; mimeType?: string } {
  return { name: r.name, ...(r.title !== undefined && { title: r.title }), ...(r.description !== undefined && { description: r.description }), ...(r.mimeType !== undefined && { mimeType: r.mimeType }) };
}

export function registerTool(server: McpServer, tool: OpenApiTool): void {
  server.tool(
    tool.name,
    {
      ...(tool.title !== undefined && { title: tool.title }),
      ...(tool.description !== undefined && { description: tool.description }),
      input: lazyJsonSchema(tool.inputSchema),
      ...(tool.outputSchema !== undefined && { output: lazyJsonSchema(tool.outputSchema) }),
      annotations: tool.annotations,
      timeoutMs: tool.timeoutMs,
    },
    (args, ctx) => tool.call(args, { signal: ctx.signal, timedBySignal: true }) as unknown as Promise<McpToolResult>,
  );
}

function isLoaded(source: unknown): source is OpenApiDocument {
  return typeof source === 'object' && source !== null && !(source instanceof URL) && 'root' in source && 'version' in source && typeof (source as { root: unknown }).root === 'object';
}
