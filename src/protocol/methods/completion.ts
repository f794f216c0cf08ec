import { isPlainObject } from '../../jsonrpc/message.js';
import type { Completer } from '../../registries/types.js';
import type { RequestContext } from '../request/context.js';
import { invalidParams } from '../wire/errors.js';
import { BOTH_ERAS } from '../wire/method-facts.js';
import { declares, optionalObject, requireString, type RequestMethod } from './shared.js';
import { McpPromptNotFoundError, McpResourceNotFoundError } from '../../errors/classes.js';

const MAX_VALUES = 100;

export const complete: RequestMethod = {
  method: 'completion/complete',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: declares('completions'),
  // Completing a prompt's or a template's arguments needs what using it needs.
  scopes: (server, params) => {
    const ref = params['ref'];
    if (!isPlainObject(ref)) return undefined;
    const catalog = server.catalog;
    if (ref['type'] === 'ref/prompt' && typeof ref['name'] === 'string') return (catalog === undefined ? server.prompts.get(ref['name']) : catalog.peekPrompt(ref['name']))?.scopes;
    if (ref['type'] === 'ref/resource' && typeof ref['uri'] === 'string') return server.resources.templates.get(ref['uri'])?.scopes;
    return undefined;
  },
  async handle(params, context) {
    const server = context.server;
    const ref = optionalObject(params, 'ref');
    const argument = optionalObject(params, 'argument');
    if (!ref || !argument) throw invalidParams('Invalid params: completion/complete needs "ref" and "argument" objects');
    const argName = requireString(argument, 'name');
    const value = requireString(argument, 'value');
    const given = optionalObject(optionalObject(params, 'context') ?? {}, 'arguments') ?? {};
    const args: Record<string, string> = {};
    for (const [k, v] of Object.entries(given)) if (typeof v === 'string') args[k] = v;

    let completer: Completer<RequestContext> | undefined;
    const catalog = server.catalog;
    if (catalog !== undefined && (ref['type'] === 'ref/prompt' || ref['type'] === 'ref/resource')) {
      if (ref['type'] === 'ref/prompt') {
        const name = requireString(ref, 'name');
        const prompt = await catalog.promptFor(name, context);
        if (prompt === undefined) throw new McpPromptNotFoundError(name);
        completer = prompt.complete?.[argName];
      } else {
        const uri = requireString(ref, 'uri');
        const found = await catalog.templateFor(uri, context);
        if (found === undefined) throw new McpResourceNotFoundError(uri);
        completer = found.template?.complete?.[argName];
      }
    } else if (ref['type'] === 'ref/prompt') {
      const name = requireString(ref, 'name');
      const prompt = server.prompts.get(name);
      if (!prompt || !server.prompts.isEnabled(name)) throw new McpPromptNotFoundError(name);
      completer = prompt.complete?.[argName];
    } else if (ref['type'] === 'ref/resource') {
      const uri = requireString(ref, 'uri');
      const templates = server.resources.templates;
      // A disabled template is hidden everywhere, completion included.
      const template = templates.isEnabled(uri) ? templates.get(uri) : undefined;
      if (!template) {
        if (!server.resources.has(uri)) throw new McpResourceNotFoundError(uri);
      } else {
        completer = template.complete?.[argName];
      }
    } else {
      throw invalidParams('Invalid params: "ref.type" must be "ref/prompt" or "ref/resource"');
    }
    const all = completer ? await completer(value, { arguments: args, request: context }) : [];
    const values = all.slice(0, MAX_VALUES);
    return { completion: { values, total: all.length, hasMore: all.length > MAX_VALUES } };
  },
};
