/**
 * A `tools/call` the server answered with a task (2026-07-28 tasks extension, docs/tasks.md):
 * poll `tasks/get` until the task is final, answer the questions it asks on the way with
 * `tasks/update`, and hand back what the call would have answered synchronously.
 */
import type { Client } from '../client.js';
import { CliError, Exit } from './errors.js';
import type { Json } from './json.js';
import { str } from './text.js';

const FINAL = new Set(['completed', 'failed', 'cancelled']);
/** How often to ask when the server names no interval, and the bounds put on one it names. */
const POLL = { default: 500, min: 50, max: 5000 };

export const isTaskResult = (result: Json): boolean => result['resultType'] === 'task' && typeof result['taskId'] === 'string';

export async function awaitTask(client: Client, created: Json, answer: (method: string, params: Json) => Promise<Json>, report: (line: string) => void): Promise<Json> {
  const taskId = String(created['taskId']);
  report(`task ${taskId}: ${str(created['status'])}`);
  let task = created;
  let status = str(task['status']);
  for (;;) {
    if (FINAL.has(status)) break;
    if (status === 'input_required' && isObject(task['inputRequests'])) {
      const inputResponses: Json = {};
      for (const [key, request] of Object.entries(task['inputRequests'])) {
        const r = isObject(request) ? request : {};
        inputResponses[key] = await answer(str(r['method']), isObject(r['params']) ? r['params'] : {});
      }
      await client.request('tasks/update', { taskId, inputResponses });
    } else {
      await sleep(pollInterval(task['pollIntervalMs']));
    }
    task = await client.request('tasks/get', { taskId });
    const next = str(task['status']);
    if (next !== status) report(`task ${taskId}: ${next}`);
    status = next;
  }
  if (status === 'completed' && isObject(task['result'])) return task['result'];
  if (status === 'failed') {
    const error = isObject(task['error']) ? task['error'] : {};
    throw new CliError(`task ${taskId} failed: error ${str(error['code'])}: ${str(error['message'])}`, Exit.PROTOCOL);
  }
  if (status === 'cancelled') throw new CliError(`task ${taskId} was cancelled`, Exit.PROTOCOL);
  throw new CliError(`task ${taskId} ended ${status} without a result`, Exit.PROTOCOL);
}

function pollInterval(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return POLL.default;
  return Math.min(POLL.max, Math.max(POLL.min, value));
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
