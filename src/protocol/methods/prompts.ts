import type { McpPromptRegistry } from '../../registries/prompts.js';
import type { McpPrompt } from '../../registries/types.js';
import type { RequestContext } from '../context.js';
import { invalidParams } from '../errors.js';
import { paginate } from '../pagination.js';
import { cachedView, capability, optionalObject, permitted, pick, requireString, type MethodEntry } from './shared.js';

type Registry = McpPromptRegistry<RequestContext>;
const PROMPT_FIELDS = ['title', 'description', 'icons', '_meta'] as const;
const ARGUMENT_FIELDS = ['title', 'description', 'required'] as const;
const views = new WeakMap<Registry, { version: number; view: Record<string, unknown>[] }>();

function wirePrompt(prompt: McpPrompt<RequestContext>): Record<string, unknown> {
  const wire = pick(prompt, PROMPT_FIELDS, { name: prompt.name });
  if (prompt.arguments !== undefined) wire['arguments'] = prompt.arguments.map((a) => pick(a, ARGUMENT_FIELDS, { name: a.name }));
  return wire;
}

export const listPrompts: MethodEntry = {
  available: (handler) => capability(handler, 'prompts'),
  handle(params, context, handler) {
    const registry = handler.deps.prompts;
    const all = permitted(cachedView(views, registry, () => registry.list().map(wirePrompt)), registry.list(), context);
    const { page, nextCursor } = paginate(all, params['cursor'], handler.deps.options?.pageSize);
    return nextCursor === undefined ? { prompts: page } : { prompts: page, nextCursor };
  },
};

export const getPrompt: MethodEntry = {
  available: (handler) => capability(handler, 'prompts'),
  async handle(params, context, handler) {
    const name = requireString(params, 'name');
    const args = optionalObject(params, 'arguments');
    if (args) {
      for (const [key, value] of Object.entries(args)) {
        if (typeof value !== 'string') throw invalidParams(`Invalid params: prompt argument "${key}" must be a string`);
      }
    }
    const registry = handler.deps.prompts;
    const messages = await registry.getMessages(name, args as Record<string, string> | undefined, context);
    // A prompt may end a round of a multi round-trip request with an InputRequiredResult.
    if (!Array.isArray(messages) && typeof messages === 'object' && messages !== null) return messages;
    const description = registry.get(name)?.description;
    return description === undefined ? { messages } : { description, messages };
  },
};
