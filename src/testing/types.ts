/** The test client's result shapes are the client's own (one definition, src/client/types.ts). */
export type { Result, InitializeResult, DiscoverResult, WireTool, ListToolsResult, CallToolResult, WireResource, ListResourcesResult, WireResourceTemplate, ListResourceTemplatesResult, ReadResourceResult, WirePrompt, ListPromptsResult, GetPromptResult, CompleteResult } from '../client/types.js';
