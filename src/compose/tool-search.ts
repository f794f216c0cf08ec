/**
 * The tool-search transform: a large catalogue listed as two tools, `search_tools` (a query →
 * the best matching tools' names, descriptions and input schemas) and `call_tool` (a name and
 * its arguments → the real call, with the same request context, so progress, cancellation and
 * requests for input pass through). Only what the wrapped provider lists can be found or called:
 * a tool it hides stays hidden.
 */
import { andThen, findIn, listOf } from '../registries/catalog.js';
import { RegistrationError } from '../registries/checks.js';
import type { McpProvider } from '../registries/provider.js';
import type { McpTool } from '../registries/types.js';
import { ToolError } from '../errors/classes.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export interface McpToolSearchOptions {
  /** Most tools one search answers (default 10, at most 100). */
  maxResults?: number;
  /** The names the two tools are listed under (default `search_tools`, `call_tool`). */
  searchToolName?: string;
  callToolName?: string;
}

const SEARCH_KEYS = keysOf<McpToolSearchOptions>({ maxResults: true, searchToolName: true, callToolName: true });
/** A query is cut to this many words (and characters): the matching stays linear in the catalogue. */
const MAX_QUERY_WORDS = 16;
const MAX_QUERY_LENGTH = 500;

/** Checks the options (unknown keys, ranges) and answers them with their defaults. */
export function toolSearchOptions(options: McpToolSearchOptions | true, where: string): Required<McpToolSearchOptions> {
  const o = options === true ? {} : options;
  if (typeof o !== 'object' || o === null) throw new RegistrationError(`${where}: toolSearch must be true or an options object ({ maxResults, searchToolName, callToolName })`);
  refuseUnknownKeys(o, SEARCH_KEYS, `${where} toolSearch`, (message) => new RegistrationError(message));
  const maxResults = o.maxResults ?? 10;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 100) throw new RegistrationError(`${where} toolSearch.maxResults must be an integer from 1 to 100 (got ${String(maxResults)})`);
  const searchToolName = o.searchToolName ?? 'search_tools';
  const callToolName = o.callToolName ?? 'call_tool';
  for (const [key, name] of [['searchToolName', searchToolName], ['callToolName', callToolName]] as const) {
    if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]{1,128}$/.test(name)) throw new RegistrationError(`${where} toolSearch.${key} must be a tool name (1-128 of A-Z a-z 0-9 _ . -), got ${JSON.stringify(name)}`);
  }
  if (searchToolName === callToolName) throw new RegistrationError(`${where} toolSearch: searchToolName and callToolName are both "${searchToolName}"`);
  return { maxResults, searchToolName, callToolName };
}

const wordsOf = (text: string): string[] => text.slice(0, MAX_QUERY_LENGTH).toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '').slice(0, MAX_QUERY_WORDS);

/** A tool's score for the query words: name hits count three times a description hit; the exact name wins. */
function score(tool: McpTool<never, unknown>, query: string, words: readonly string[]): number {
  const name = tool.name.toLowerCase();
  const text = `${tool.title ?? ''} ${tool.description ?? ''}`.toLowerCase();
  let total = name === query ? 100 : 0;
  for (const word of words) {
    if (name.includes(word)) total += 3;
    if (text.includes(word)) total += 1;
  }
  return total;
}

/** The `max` best of `tools` for `query`, best first (ties keep the listed order): one pass, at most `max` kept. */
export function searchTools<T extends McpTool<never, unknown>>(tools: readonly T[], query: string, max: number): T[] {
  const words = wordsOf(query);
  const exact = query.trim().toLowerCase();
  const best: { tool: T; score: number }[] = [];
  for (const tool of tools) {
    const s = words.length === 0 ? 0 : score(tool, exact, words);
    if (s === 0) continue;
    if (best.length === max && best[max - 1]!.score >= s) continue;
    let i = best.length;
    while (i > 0 && best[i - 1]!.score < s) i--;
    best.splice(i, 0, { tool, score: s });
    if (best.length > max) best.pop();
  }
  return best.map((b) => b.tool);
}

/** `inner` served as `search_tools` and `call_tool`; its resources, prompts, subscriptions and changes as they are. */
export function toolSearchProvider<C>(inner: McpProvider<C>, options: McpToolSearchOptions | true = true): McpProvider<C> {
  const { maxResults, searchToolName, callToolName } = toolSearchOptions(options, 'toolSearch()');
  const search: McpTool<never, C> = {
    name: searchToolName,
    description: `Searches this server's tools by keywords; answers up to ${maxResults} matching tools (name, description, input schema), best first. Call one with ${callToolName}.`,
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'Keywords for what the tool should do' } }, required: ['query'] },
    annotations: { readOnlyHint: true },
    execute: (args: never, ctx: C) => {
      const query = (args as { query?: unknown } | undefined)?.query;
      if (typeof query !== 'string') throw new ToolError(`${searchToolName} needs a "query" string`);
      return andThen(listOf(inner, 'tools', ctx), (tools) => {
        const found = searchTools(tools, query, maxResults).map((t) => ({ name: t.name, ...(t.description !== undefined && { description: t.description }), inputSchema: t.inputSchema ?? { type: 'object' } }));
        return { content: [{ type: 'text' as const, text: JSON.stringify(found) }], structuredContent: { tools: found } };
      });
    },
  };
  const call: McpTool<never, C> = {
    name: callToolName,
    description: `Calls a tool found with ${searchToolName}, by its name, with its arguments.`,
    inputSchema: { type: 'object', properties: { name: { type: 'string', description: `A tool name ${searchToolName} answered` }, arguments: { type: 'object', description: 'The tool\'s arguments, as its input schema says' } }, required: ['name'] },
    execute: (args: never, ctx: C) => {
      const { name, arguments: input } = (args ?? {}) as { name?: unknown; arguments?: unknown };
      if (typeof name !== 'string') throw new ToolError(`${callToolName} needs a "name" string`);
      if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) throw new ToolError(`${callToolName}: "arguments" must be an object`);
      return andThen(findIn(inner, 'tools', name, ctx), (tool) => {
        if (tool === undefined) throw new ToolError(`${callToolName}: no tool is named "${name}"; ${searchToolName} lists the ones there are`);
        // The same request context: the real tool's progress, cancellation and input requests are this call's.
        return tool.execute((input ?? {}) as never, ctx);
      });
    },
  };
  const both = [search, call] as const;
  const provider: McpProvider<C> = {
    ...(inner.label !== undefined && { label: inner.label }),
    listTools: () => both,
    findTool: (name) => both.find((t) => t.name === name),
  };
  if (inner.listResources) provider.listResources = inner.listResources.bind(inner);
  if (inner.listResourceTemplates) provider.listResourceTemplates = inner.listResourceTemplates.bind(inner);
  if (inner.findResource) provider.findResource = inner.findResource.bind(inner);
  if (inner.listPrompts) provider.listPrompts = inner.listPrompts.bind(inner);
  if (inner.findPrompt) provider.findPrompt = inner.findPrompt.bind(inner);
  if (inner.subscribe) provider.subscribe = inner.subscribe.bind(inner);
  if (inner.unsubscribe) provider.unsubscribe = inner.unsubscribe.bind(inner);
  if (inner.sessionClosed) provider.sessionClosed = inner.sessionClosed.bind(inner);
  // The two tools never change: the inner tool list's changes are not told (a search sees the new list).
  if (inner.onChange) provider.onChange = (listener) => inner.onChange!((change) => (change.type === 'list_changed' && change.list === 'tools' ? undefined : listener(change)));
  return provider;
}
