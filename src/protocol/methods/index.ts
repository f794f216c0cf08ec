import { complete } from './completion.js';
import { discover, initialize, ping, setLevel } from './lifecycle.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, listTemplates, readResource } from './resources.js';
import type { MethodEntry } from './shared.js';
import { listen, subscribe, unsubscribe } from './subscriptions.js';
import { callTool, listTools } from './tools.js';
import { cancelTask, getTask, updateTask } from '../tasks/methods.js';

export type { MethodEntry } from './shared.js';

/** Every method the server answers. The era and declared capabilities decide availability per request. */
export const methodTable: Readonly<Record<string, MethodEntry | undefined>> = Object.assign(Object.create(null) as Record<string, MethodEntry>, {
  initialize,
  ping,
  'logging/setLevel': setLevel,
  'server/discover': discover,
  'tools/list': listTools,
  'tools/call': callTool,
  'resources/list': listResources,
  'resources/templates/list': listTemplates,
  'resources/read': readResource,
  'resources/subscribe': subscribe,
  'resources/unsubscribe': unsubscribe,
  'prompts/list': listPrompts,
  'prompts/get': getPrompt,
  'completion/complete': complete,
  'subscriptions/listen': listen,
  'tasks/get': getTask,
  'tasks/update': updateTask,
  'tasks/cancel': cancelTask,
});
