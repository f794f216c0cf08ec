/** A tool as `tools/list` shows it, and what `tools/call` answers. */
import type { ContentBlock, Icon, Meta } from './content.js';
import type { CacheHints, McpResult } from './result.js';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** 2025-11-25: whether a call may be task-augmented (`forbidden` when absent). */
export interface ToolExecution {
  taskSupport?: 'forbidden' | 'optional' | 'required';
}

/** A tool as `tools/list` shows it (the spec's `Tool`: what middleware on `tools/list` sees and what a client lists). */
export interface ToolDescription {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  execution?: ToolExecution;
  _meta?: Meta;
}

export interface ListToolsResult extends McpResult, CacheHints {
  tools: ToolDescription[];
  nextCursor?: string;
}

/** A tool's result (the spec's `CallToolResult`): what a handler returns and a client receives. */
export interface McpToolResult extends McpResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
