import { cancelTask, getTask, updateTask } from './tasks.js';
import { complete } from './completion.js';
import { discover, initialize, ping, setLevel } from './lifecycle.js';
import { cancelled, initialized, rootsListChanged } from './notifications.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, listTemplates, readResource } from './resources.js';
import type { MethodEntry } from './shared.js';
import { getSkill, listSkills, readDirectory } from './skills.js';
import { listen, subscribe, unsubscribe } from './subscriptions.js';
import { callTool, listTools } from './tools.js';

export type { MethodEntry, NotificationMethod, RequestMethod } from './shared.js';

/**
 * Every method the server knows, requests and notifications, with its facts
 * (eras, gate, cacheable, asks the client, routing name, streams, downgrade)
 * and its handler. Adding a method is one file and one line here.
 */
const METHODS: readonly MethodEntry[] = [
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
];

/** The method table by name (no prototype: a method named `constructor` is just unknown). */
export const methodTable: Readonly<Record<string, MethodEntry | undefined>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, MethodEntry>, Object.fromEntries(METHODS.map((entry) => [entry.method, entry]))),
);

/** The facts of a method, for the transports (undefined: not an MCP method this server knows). */
export function methodFacts(method: string | undefined): MethodEntry | undefined {
  return method === undefined ? undefined : methodTable[method];
}
