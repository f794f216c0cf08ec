/**
 * Result shapes the client (and mcpkit/testing's test client) return. Every result
 * keeps an index signature: on the 2026-07-28 path results also carry `resultType`,
 * cache hints and `_meta`, and callers may look at any field the server sent.
 */
import type { Implementation, ServerCapabilities } from '../protocol/wire/types.js';
import type { Icon, McpPromptArgument, McpPromptMessage, McpToolResult, ResourceContents, ResourceDescription, ToolDescription } from '../registries/types.js';

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

/** `server/discover` (2026-07-28). */
export interface DiscoverResult extends Result {
  serverInfo?: Implementation;
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** A tool as `tools/list` shows it: the server's one wire shape (`ToolDescription`), open to fields a newer revision adds. */
export interface WireTool extends ToolDescription {
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

