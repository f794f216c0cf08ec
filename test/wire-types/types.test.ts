/**
 * The wire types (src/protocol/wire/types): one name per shape, used by the methods, middleware,
 * the test client and mcpkit/client alike, and no field of the spec's schemas missing. Each key
 * list below is checked against its type by the compiler (a key added to or dropped from the type
 * fails typecheck), then against test/spec/<revision>/schema.json at run time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Client } from '../../src/client/client.js';
import type { MethodTypes, ResultOf } from '../../src/protocol/methods/middleware-types.js';
import { wireTool } from '../../src/protocol/methods/tools.js';
import type * as Wire from '../../src/wire-types/index.js';
import type { McpPrompt, McpResource, McpResourceTemplate, McpTool } from '../../src/registries/types.js';
import type { TestClient } from '../../src/testing/client.js';

/** The declared keys of T, without its index signature (results are open, as in the spec). */
type Declared<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] } & string;
type Keys<T> = { readonly [K in Declared<T>]-?: true };
const keys = <T>(list: Keys<T>): string[] => Object.keys(list);

const schema = (revision: string): Record<string, { properties?: Record<string, unknown> }> => {
  const parsed = JSON.parse(readFileSync(new URL(`../spec/${revision}/schema.json`, import.meta.url), 'utf8')) as { $defs?: object; definitions?: object };
  return (parsed.$defs ?? parsed.definitions) as Record<string, { properties?: Record<string, unknown> }>;
};
const REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
const DEFS = REVISIONS.map(schema);

/** Ours beside the spec's definition of the same shape; `extra`: keys we declare that no schema has, with why. */
const SHAPES: { ours: string; spec: string; keys: string[]; extra?: string[] }[] = [
  { ours: 'ToolDescription', spec: 'Tool', keys: keys<Wire.ToolDescription>({ name: true, title: true, description: true, inputSchema: true, outputSchema: true, annotations: true, icons: true, execution: true, _meta: true }) },
  { ours: 'ToolAnnotations', spec: 'ToolAnnotations', keys: keys<Wire.ToolAnnotations>({ title: true, readOnlyHint: true, destructiveHint: true, idempotentHint: true, openWorldHint: true }) },
  { ours: 'ToolExecution', spec: 'ToolExecution', keys: keys<Wire.ToolExecution>({ taskSupport: true }) },
  { ours: 'McpToolResult', spec: 'CallToolResult', keys: keys<Wire.McpToolResult>({ content: true, structuredContent: true, isError: true, _meta: true, resultType: true }) },
  { ours: 'ListToolsResult', spec: 'ListToolsResult', keys: keys<Wire.ListToolsResult>({ tools: true, nextCursor: true, _meta: true, resultType: true, ttlMs: true, cacheScope: true }) },
  { ours: 'ResourceDescription', spec: 'Resource', keys: keys<Wire.ResourceDescription>({ uri: true, name: true, title: true, description: true, mimeType: true, size: true, icons: true, annotations: true, _meta: true }) },
  { ours: 'ResourceLink', spec: 'ResourceLink', keys: keys<Wire.ResourceLink>({ type: true, uri: true, name: true, title: true, description: true, mimeType: true, size: true, icons: true, annotations: true, _meta: true }) },
  { ours: 'ResourceTemplateDescription', spec: 'ResourceTemplate', keys: keys<Wire.ResourceTemplateDescription>({ uriTemplate: true, name: true, title: true, description: true, mimeType: true, icons: true, annotations: true, _meta: true }) },
  { ours: 'ListResourcesResult', spec: 'ListResourcesResult', keys: keys<Wire.ListResourcesResult>({ resources: true, nextCursor: true, _meta: true, resultType: true, ttlMs: true, cacheScope: true }) },
  { ours: 'ListResourceTemplatesResult', spec: 'ListResourceTemplatesResult', keys: keys<Wire.ListResourceTemplatesResult>({ resourceTemplates: true, nextCursor: true, _meta: true, resultType: true, ttlMs: true, cacheScope: true }) },
  { ours: 'ReadResourceResult', spec: 'ReadResourceResult', keys: keys<Wire.ReadResourceResult>({ contents: true, _meta: true, resultType: true, ttlMs: true, cacheScope: true }) },
  { ours: 'TextResourceContents', spec: 'TextResourceContents', keys: keys<Wire.TextResourceContents>({ uri: true, mimeType: true, text: true, _meta: true }) },
  { ours: 'BlobResourceContents', spec: 'BlobResourceContents', keys: keys<Wire.BlobResourceContents>({ uri: true, mimeType: true, blob: true, _meta: true }) },
  { ours: 'PromptDescription', spec: 'Prompt', keys: keys<Wire.PromptDescription>({ name: true, title: true, description: true, arguments: true, icons: true, _meta: true }) },
  { ours: 'McpPromptArgument', spec: 'PromptArgument', keys: keys<Wire.McpPromptArgument>({ name: true, title: true, description: true, required: true }) },
  { ours: 'McpPromptMessage', spec: 'PromptMessage', keys: keys<Wire.McpPromptMessage>({ role: true, content: true }) },
  { ours: 'ListPromptsResult', spec: 'ListPromptsResult', keys: keys<Wire.ListPromptsResult>({ prompts: true, nextCursor: true, _meta: true, resultType: true, ttlMs: true, cacheScope: true }) },
  { ours: 'GetPromptResult', spec: 'GetPromptResult', keys: keys<Wire.GetPromptResult>({ description: true, messages: true, _meta: true, resultType: true }) },
  { ours: 'CompleteResult', spec: 'CompleteResult', keys: keys<Wire.CompleteResult>({ completion: true, _meta: true, resultType: true }) },
  { ours: 'McpResult', spec: 'Result', keys: keys<Wire.McpResult>({ _meta: true, resultType: true }) },
  { ours: 'TextContent', spec: 'TextContent', keys: keys<Wire.TextContent>({ type: true, text: true, annotations: true, _meta: true }) },
  { ours: 'ImageContent', spec: 'ImageContent', keys: keys<Wire.ImageContent>({ type: true, data: true, mimeType: true, annotations: true, _meta: true }) },
  { ours: 'AudioContent', spec: 'AudioContent', keys: keys<Wire.AudioContent>({ type: true, data: true, mimeType: true, annotations: true, _meta: true }) },
  { ours: 'EmbeddedResource', spec: 'EmbeddedResource', keys: keys<Wire.EmbeddedResource>({ type: true, resource: true, annotations: true, _meta: true }) },
  { ours: 'Annotations', spec: 'Annotations', keys: keys<Wire.Annotations>({ audience: true, priority: true, lastModified: true }) },
  { ours: 'Icon', spec: 'Icon', keys: keys<Wire.Icon>({ src: true, mimeType: true, sizes: true, theme: true }) },
  { ours: 'Implementation', spec: 'Implementation', keys: keys<Wire.Implementation>({ name: true, version: true, title: true, description: true, websiteUrl: true, icons: true }) },
  { ours: 'ServerCapabilities', spec: 'ServerCapabilities', keys: keys<Wire.ServerCapabilities>({ tools: true, resources: true, prompts: true, logging: true, completions: true, tasks: true, experimental: true, extensions: true }) },
  { ours: 'ClientCapabilities', spec: 'ClientCapabilities', keys: keys<Wire.ClientCapabilities>({ roots: true, sampling: true, elicitation: true, tasks: true, experimental: true, extensions: true }) },
  {
    ours: 'InitializeResult',
    spec: 'InitializeResult',
    keys: keys<Wire.InitializeResult>({ protocolVersion: true, capabilities: true, serverInfo: true, instructions: true, _meta: true, resultType: true }),
    // Every result's (McpResult); no revision that has initialize defines it.
    extra: ['resultType'],
  },
  {
    ours: 'DiscoverResult',
    spec: 'DiscoverResult',
    keys: keys<Wire.DiscoverResult>({ supportedVersions: true, capabilities: true, instructions: true, serverInfo: true, _meta: true, resultType: true, ttlMs: true, cacheScope: true }),
    // Read by the client when a server of an earlier draft sends it there (2026-07-28 puts it in _meta).
    extra: ['serverInfo'],
  },
  { ours: 'ElicitFormParams', spec: 'ElicitRequestFormParams', keys: keys<Wire.ElicitFormParams>({ mode: true, message: true, requestedSchema: true, task: true, _meta: true }) },
  { ours: 'ElicitUrlParams', spec: 'ElicitRequestURLParams', keys: keys<Wire.ElicitUrlParams>({ mode: true, message: true, url: true, elicitationId: true, task: true, _meta: true }) },
  { ours: 'ElicitResult', spec: 'ElicitResult', keys: keys<Wire.ElicitResult>({ action: true, content: true, _meta: true }) },
  { ours: 'SamplingMessage', spec: 'SamplingMessage', keys: keys<Wire.SamplingMessage>({ role: true, content: true, _meta: true }) },
  {
    ours: 'CreateMessageParams',
    spec: 'CreateMessageRequestParams',
    keys: keys<Wire.CreateMessageParams>({ messages: true, maxTokens: true, systemPrompt: true, temperature: true, stopSequences: true, includeContext: true, modelPreferences: true, metadata: true, tools: true, toolChoice: true, task: true, _meta: true }),
  },
  { ours: 'CreateMessageResult', spec: 'CreateMessageResult', keys: keys<Wire.CreateMessageResult>({ role: true, content: true, model: true, stopReason: true, _meta: true }) },
  { ours: 'Root', spec: 'Root', keys: keys<Wire.Root>({ uri: true, name: true, _meta: true }) },
  { ours: 'ListRootsResult', spec: 'ListRootsResult', keys: keys<Wire.ListRootsResult>({ roots: true, _meta: true }) },
  { ours: 'TaskMetadata', spec: 'TaskMetadata', keys: keys<Wire.TaskMetadata>({ ttl: true }) },
];

describe('the wire types', () => {
  it.each(SHAPES)('$ours declares every field of the spec’s $spec, in every revision that has it', ({ ours, spec, keys: declared, extra = [] }) => {
    const found = DEFS.filter((defs) => defs[spec] !== undefined);
    expect(found.length, `${spec} is in no schema`).toBeGreaterThan(0);
    const specKeys = new Set(found.flatMap((defs) => Object.keys(defs[spec]!.properties ?? {})));
    expect([...specKeys].filter((key) => !declared.includes(key)).sort(), `${ours} lacks fields of ${spec}`).toEqual([]);
    expect(declared.filter((key) => !specKeys.has(key)).sort(), `${ours} declares fields no ${spec} has`).toEqual([...extra].sort());
  });

  it('are what the methods, middleware, the test client and mcpkit/client return: one type per shape', () => {
    expectTypeOf(wireTool).returns.toEqualTypeOf<Wire.ToolDescription>();
    expectTypeOf<ResultOf<'tools/list'>>().toEqualTypeOf<Wire.ListToolsResult>();
    expectTypeOf<ResultOf<'tools/call'>>().toEqualTypeOf<Wire.McpToolResult>();
    expectTypeOf<ResultOf<'prompts/list'>>().toEqualTypeOf<Wire.ListPromptsResult>();
    expectTypeOf<ResultOf<'prompts/get'>>().toEqualTypeOf<Wire.GetPromptResult>();
    expectTypeOf<ResultOf<'resources/list'>>().toEqualTypeOf<Wire.ListResourcesResult>();
    expectTypeOf<ResultOf<'resources/templates/list'>>().toEqualTypeOf<Wire.ListResourceTemplatesResult>();
    expectTypeOf<ResultOf<'resources/read'>>().toEqualTypeOf<Wire.ReadResourceResult>();
    expectTypeOf<MethodTypes['tools/list']['result']['tools'][number]>().toEqualTypeOf<Wire.ToolDescription>();

    expectTypeOf<TestClient['listTools']>().returns.resolves.toEqualTypeOf<Wire.ListToolsResult>();
    expectTypeOf<TestClient['callTool']>().returns.resolves.toEqualTypeOf<Wire.McpToolResult>();
    expectTypeOf<Client['listTools']>().returns.resolves.toEqualTypeOf<Wire.ListToolsResult>();
    expectTypeOf<Client['callTool']>().returns.resolves.toEqualTypeOf<Wire.McpToolResult>();
    expectTypeOf<Client['listPrompts']>().returns.resolves.toEqualTypeOf<Wire.ListPromptsResult>();

    // The registries' contracts are the wire descriptions plus what never goes on the wire.
    expectTypeOf<McpTool>().toMatchTypeOf<Omit<Wire.ToolDescription, 'inputSchema'>>();
    expectTypeOf<McpTool['timeoutMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<McpTool['execute']>().returns.toEqualTypeOf<Promise<Wire.McpToolResult> | Wire.McpToolResult>();
    expectTypeOf<McpPrompt>().toMatchTypeOf<Wire.PromptDescription>();
    expectTypeOf<McpResource>().toMatchTypeOf<Wire.ResourceDescription>();
    expectTypeOf<McpResourceTemplate>().toMatchTypeOf<Wire.ResourceTemplateDescription>();
  });
});
