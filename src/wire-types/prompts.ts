/** A prompt as `prompts/list` shows it, and what `prompts/get` answers. */
import type { ContentBlock, Icon, Meta } from './content.js';
import type { CacheHints, McpResult } from './result.js';

export interface McpPromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** A prompt as `prompts/list` shows it (the spec's `Prompt`). */
export interface PromptDescription {
  name: string;
  title?: string;
  description?: string;
  arguments?: readonly McpPromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

export interface ListPromptsResult extends McpResult, CacheHints {
  prompts: PromptDescription[];
  nextCursor?: string;
}

export interface GetPromptResult extends McpResult {
  description?: string;
  messages: McpPromptMessage[];
}
