/** Result shapes the client returns (the server's wire shapes, as the registries define their parts). */
// Every result keeps an index signature: 2026-07-28 results also carry `resultType`, cache hints and `_meta`.
import type { Implementation, ServerCapabilities } from '../protocol/wire/types.js';
import type { Icon, McpPromptArgument, McpPromptMessage, McpTool, McpToolResult, ResourceContents, ResourceDescription } from '../registries/types.js';

type Json = Record<string, unknown>;

export interface Result {
  _meta?: Json;
  [key: string]: unknown;
}

export interface InitializeResult extends Result {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

export interface DiscoverResult extends Result {
  serverInfo?: Implementation;
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

export interface WireTool extends Omit<McpTool, 'execute' | 'task' | 'taskStart' | 'inputSchema'> {
  inputSchema: Json;
  [key: string]: unknown;
}

export interface ListToolsResult extends Result {
  tools: WireTool[];
  nextCursor?: string;
}

export type CallToolResult = McpToolResult;

export interface WireResource extends ResourceDescription {
  [key: string]: unknown;
}

export interface ListResourcesResult extends Result {
  resources: WireResource[];
  nextCursor?: string;
}

export interface WireResourceTemplate extends Omit<WireResource, 'uri' | 'size'> {
  uriTemplate: string;
}

export interface ListResourceTemplatesResult extends Result {
  resourceTemplates: WireResourceTemplate[];
  nextCursor?: string;
}

export interface ReadResourceResult extends Result {
  contents: ResourceContents[];
}

export interface WirePrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: McpPromptArgument[];
  icons?: Icon[];
  _meta?: Json;
  [key: string]: unknown;
}

export interface ListPromptsResult extends Result {
  prompts: WirePrompt[];
  nextCursor?: string;
}

export interface GetPromptResult extends Result {
  description?: string;
  messages: McpPromptMessage[];
}

export interface CompleteResult extends Result {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

/** 2026-07-28 cache hints on cacheable results. */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

