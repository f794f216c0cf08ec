import { cancelTask, getTask, updateTask } from './tasks.js';
import { complete } from './completion.js';
import { discover, initialize, ping, setLevel } from './lifecycle.js';
import { cancelled, initialized, rootsListChanged } from './notifications.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, listTemplates, readResource } from './resources.js';
import type { MethodEntry, RequestMethod } from './shared.js';
import { getSkill, listSkills, readDirectory } from './skills.js';
import { listen, subscribe, unsubscribe } from './subscriptions.js';
import { callTool, listTools } from './tools.js';

export type { MethodEntry, NotificationMethod, RequestMethod } from './shared.js';

/**
 * Every method the server knows, requests and notifications, with its facts
 * (eras, gate, scopes, target, cacheable, asks the client, routing name,
 * streams, downgrade, middleware types) and its handler. Adding a method is
 * one file and one line here: the dispatcher, the HTTP engine, the auth gate
 * (`McpServer.scopesFor`), observability and the middleware types all read
 * the entry.
 */
const METHODS = [
  initialize,
  ping,
  setLevel,
  discover,
  listTools,
  callTool,
  listResources,
  listTemplates,
  readResource,
  readDirectory,
  listSkills,
  getSkill,
  subscribe,
  unsubscribe,
  listPrompts,
  getPrompt,
  complete,
  listen,
  getTask,
  updateTask,
  cancelTask,
  cancelled,
  initialized,
  rootsListChanged,
] as const satisfies readonly MethodEntry[];

/**
 * Params and results middleware sees (`server.use('tools/call', …)`), read from
 * the entries that declare them (`RequestMethod<M, P, R>`); other methods are
 * loosely typed.
 */
export type MethodTypes = {
  [E in (typeof METHODS)[number] as E extends RequestMethod<infer M, infer _P, infer _R> ? (string extends M ? never : M) : never]: E extends { readonly types?: infer T } ? NonNullable<T> : never;
};

/** The method table by name (no prototype: a method named `constructor` is just unknown). */
export const methodTable: Readonly<Record<string, MethodEntry | undefined>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, MethodEntry>, Object.fromEntries(METHODS.map((entry: MethodEntry) => [entry.method, entry]))),
);

/** The facts of a method, for the transports (undefined: not an MCP method this server knows). */
export function methodFacts(method: string | undefined): MethodEntry | undefined {
  return method === undefined ? undefined : methodTable[method];
}
