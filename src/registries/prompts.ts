import { McpPromptArgumentError, McpPromptNotFoundError } from './errors.js';
import { KeyedRegistry } from './registry.js';
import type { McpPrompt, McpPromptMessage } from './types.js';

/** Prompts by name; `getMessages` checks the declared required arguments first. */
export class McpPromptRegistry<TContext = unknown> extends KeyedRegistry<McpPrompt<TContext>> {
  constructor() {
    super('Prompt');
  }

  register(prompt: McpPrompt<TContext>): void {
    if (typeof prompt.name !== 'string' || prompt.name.length === 0) throw new TypeError('A prompt needs a non-empty string name');
    this.add(prompt.name, prompt);
  }

  update(prompt: McpPrompt<TContext>): void {
    this.replace(prompt.name, prompt);
  }

  async getMessages(name: string, args?: Record<string, string>, context?: TContext): Promise<readonly McpPromptMessage[]> {
    const prompt = this.active(name);
    if (!prompt) throw new McpPromptNotFoundError(name);
    const missing = (prompt.arguments ?? []).filter((a) => a.required === true && typeof args?.[a.name] !== 'string').map((a) => a.name);
    if (missing.length > 0) throw new McpPromptArgumentError(name, missing);
    return prompt.get(args, context as TContext);
  }
}
