import { McpPromptArgumentError, McpPromptNotFoundError } from '../errors/classes.js';
import { KeyedRegistry } from './registry.js';
import { checkFunction, kindOf, RegistrationError } from './checks.js';
import type { McpPrompt } from './types.js';
import type { McpPromptMessage } from '../wire-types/index.js';

/** Prompts by name; `getMessages` checks the declared required arguments first. */
export class McpPromptRegistry<TContext = unknown> extends KeyedRegistry<McpPrompt<TContext>> {
  constructor() {
    super('Prompt');
  }

  register(prompt: McpPrompt<TContext>): void {
    checkPrompt(prompt);
    this.add(prompt.name, prompt);
  }

  update(prompt: McpPrompt<TContext>): void {
    checkPrompt(prompt);
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

function checkPrompt(prompt: McpPrompt<never>): void {
  if (typeof prompt !== 'object' || prompt === null) throw new RegistrationError(`A prompt must be an object with a name and a get function (got ${kindOf(prompt)})`);
  if (typeof prompt.name !== 'string' || prompt.name.length === 0) throw new RegistrationError('A prompt needs a non-empty string name');
  checkFunction(prompt, 'get', `Prompt "${prompt.name}"`);
}
