import type { McpPrompt } from '../../registries/types.js';
import type { GetPromptResult, ListPromptsResult, PromptDescription } from '../../wire-types/index.js';
import type { RequestContext } from '../request/context.js';
import { invalidParams } from '../wire/errors.js';
import { BOTH_ERAS, PROMPT_TARGET } from '../wire/method-facts.js';
import { catalogPage, declares, optionalObject, pick, promptScopes, requireString, type RequestMethod } from './shared.js';
import { invalidResultError, promptMessagesProblem } from './result-checks.js';

const PROMPT_FIELDS = ['title', 'description', 'icons', '_meta'] as const;
const ARGUMENT_FIELDS = ['title', 'description', 'required'] as const;

function wirePrompt(prompt: McpPrompt<RequestContext>): PromptDescription {
  const wire: PromptDescription = pick(prompt, PROMPT_FIELDS, { name: prompt.name });
  if (prompt.arguments !== undefined) wire.arguments = prompt.arguments.map((a) => pick(a, ARGUMENT_FIELDS, { name: a.name }));
  return wire;
}

export const listPrompts: RequestMethod<'prompts/list', { cursor?: string }, ListPromptsResult> = {
  method: 'prompts/list',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: declares('prompts'),
  cacheable: true,
  handle: (params, context) => catalogPage(context, params, 'prompts', 'prompts', context.server.prompts, wirePrompt),
};

export const getPrompt: RequestMethod<'prompts/get', { name: string; arguments?: Record<string, string> }, GetPromptResult> = {
  method: 'prompts/get',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: declares('prompts'),
  asksClient: true,
  routingName: 'name',
  target: PROMPT_TARGET,
  scopes: promptScopes,
  downgrade: 'messages',
  async handle(params, context) {
    const name = requireString(params, 'name');
    const args = optionalObject(params, 'arguments');
    if (args) {
      for (const [key, value] of Object.entries(args)) {
        if (typeof value !== 'string') throw invalidParams(`Invalid params: prompt argument "${key}" must be a string`);
      }
    }
    const registry = context.server.prompts;
    const catalog = context.server.catalog;
    const got = catalog === undefined ? undefined : await catalog.getPrompt(name, args as Record<string, string> | undefined, context);
    const messages: unknown = got === undefined ? await registry.getMessages(name, args as Record<string, string> | undefined, context) : got.messages;
    // A prompt may end a round of a multi round-trip request with an InputRequiredResult.
    if (!Array.isArray(messages) && typeof messages === 'object' && messages !== null && typeof (messages as Record<string, unknown>)['resultType'] === 'string') return messages;
    const problem = promptMessagesProblem(messages);
    if (problem !== undefined) throw invalidResultError(context.server.logger, `prompt "${name}"`, messages, problem);
    const description = got !== undefined ? got.description : registry.get(name)?.description;
    return description === undefined ? { messages } : { description, messages };
  },
};
