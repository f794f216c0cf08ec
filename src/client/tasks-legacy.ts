/**
 * Tasks as revision 2025-11-25 has them (a utility of the protocol, not an extension):
 * `tools/call` with a `task` parameter answers a `CreateTaskResult` (`{ task }`); the
 * client polls `tasks/get` at the task's `pollInterval` (a `notifications/tasks/status`
 * wakes it early) and fetches the outcome with `tasks/result`, which blocks until the
 * task is final. On `input_required` it calls `tasks/result` at once: the task's
 * questions then arrive as ordinary server requests (elicitation, sampling, with the
 * related-task `_meta`) that the client's handlers answer. Everything is checked.
 */
import { isPlainObject } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/errors.js';
import { PollPause } from './poll-pause.js';
import { McpError } from './errors.js';
import type { Json, RequestOptions } from './options.js';
import type { ClientTask, TaskWaitOptions } from './task-types.js';
import type { McpResult, McpToolResult, ServerCapabilities, TaskStatus, ToolDescription } from '../wire-types/index.js';

/** The one legacy revision with tasks. */
export const TASKS_REVISION = '2025-11-25';
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** What 2025-11-25 lets the client do, from the server's `tasks` capability. */
export interface LegacyTaskSupport {
  /** `tasks.requests.tools.call`: tools may be called as tasks. */
  toolCalls: boolean;
  list: boolean;
  cancel: boolean;
}

export const NO_LEGACY_TASKS: LegacyTaskSupport = Object.freeze({ toolCalls: false, list: false, cancel: false });

// Asked on every callTool of a 2025-11-25 session: worked out once per set of server capabilities.
const supportOf = new WeakMap<ServerCapabilities, LegacyTaskSupport>();

export function legacyTaskSupport(capabilities: ServerCapabilities): LegacyTaskSupport {
  let support = supportOf.get(capabilities);
  if (support === undefined) supportOf.set(capabilities, (support = readLegacyTaskSupport(capabilities)));
  return support;
}

function readLegacyTaskSupport(capabilities: ServerCapabilities): LegacyTaskSupport {
  const tasks = (capabilities as Json)['tasks'];
  if (!isPlainObject(tasks)) return NO_LEGACY_TASKS;
  const requests = isPlainObject(tasks['requests']) ? tasks['requests'] : {};
  const tools = isPlainObject(requests['tools']) ? requests['tools'] : {};
  return { toolCalls: isPlainObject(tools['call']), list: isPlainObject(tasks['list']), cancel: isPlainObject(tasks['cancel']) };
}

/**
 * Whether a `tools/call` goes as a task (the spec's tool-level rules): never unless the
 * server declares task-augmented calls; `required` always; `optional` when the caller
 * asks; a tool the client has not listed only when the caller asks.
 */
export function callsAsTask(support: LegacyTaskSupport, tool: ToolDescription | undefined, asked: boolean): boolean {
  if (!support.toolCalls) return false;
  const taskSupport = tool?.execution?.taskSupport;
  if (taskSupport === 'required') return true;
  if (tool === undefined || taskSupport === 'optional') return asked;
  return false;
}

/** A `CreateTaskResult`: `{ task: { taskId, … } }` (a `CallToolResult` has `content` instead). */
export function createdTask(result: unknown): Json | undefined {
  if (!isPlainObject(result) || !isPlainObject(result['task']) || Array.isArray(result['content'])) return undefined;
  return result['task'];
}

/**
 * The answer to a `tools/call` sent as a task: its task (`CreateTaskResult`), or undefined
 * when the server ran it at once (a tool result). Anything else is a precise error.
 */
export function taskOrResult(answer: McpResult): ClientTask | undefined {
  const created = createdTask(answer);
  if (created !== undefined) return parseLegacyTask(created, undefined, 'tools/call');
  if (Array.isArray(answer['content'])) return undefined;
  throw new McpError('tools/call', ErrorCode.InternalError, 'The server answered a tools/call sent as a task with neither a task (CreateTaskResult) nor a tool result');
}

/** A 2025-11-25 `Task` checked: a string id (the one asked for, when one was), a known status. */
export function parseLegacyTask(value: unknown, taskId: string | undefined, method: string): ClientTask {
  const bad = (why: string): never => {
    throw new McpError(method, ErrorCode.InternalError, `The server answered ${method}${taskId === undefined ? '' : ` for task ${JSON.stringify(taskId)}`} with ${why}`);
  };
  if (!isPlainObject(value)) return bad('a task that is not an object');
  const id = value['taskId'];
  if (typeof id !== 'string' || id === '' || id.length > 1024) return bad(`a task id that is not a string of 1 to 1024 characters (${JSON.stringify(id)?.slice(0, 100)})`);
  if (taskId !== undefined && id !== taskId) return bad(`another task id (${JSON.stringify(id).slice(0, 100)})`);
  const status = value['status'];
  if (typeof status !== 'string' || !STATUSES.has(status)) return bad(`an unknown status ${JSON.stringify(status)?.slice(0, 100)} (expected one of ${[...STATUSES].join(', ')})`);
  const task: ClientTask = { taskId: id, status: status as TaskStatus };
  for (const key of ['statusMessage', 'createdAt', 'lastUpdatedAt'] as const) if (typeof value[key] === 'string') task[key] = value[key].slice(0, 4096);
  if (typeof value['ttl'] === 'number' && Number.isFinite(value['ttl'])) task.ttlMs = value['ttl'];
  if (typeof value['pollInterval'] === 'number' && Number.isFinite(value['pollInterval'])) task.pollIntervalMs = value['pollInterval'];
  return task;
}

/** What the legacy wait needs from the client. */
export interface LegacyWaitHost {
  request(method: string, params: Json, options?: RequestOptions): Promise<McpResult>;
  get(taskId: string, options?: RequestOptions): Promise<ClientTask>;
  /** Each `notifications/tasks/status` until the returned function is called. */
  watch(onTask: (params: Json) => void): () => void;
  nextPollMs(task: ClientTask, previousMs: number | undefined): number;
}

/**
 * Waits for a 2025-11-25 task and returns what the call would have answered: polls
 * `tasks/get` until the task is final or asks for input, then `tasks/result`.
 * Returns undefined when `signal` aborted first (the caller cancels and says why).
 */
export async function awaitLegacyTask(host: LegacyWaitHost, task: ClientTask | string, options: TaskWaitOptions, signal: AbortSignal): Promise<McpToolResult | undefined> {
  const taskId = typeof task === 'string' ? task : task.taskId;
  const pause = new PollPause();
  let pushed: ClientTask | undefined;
  let current: ClientTask | undefined;
  let blocked = false;
  const report = (next: ClientTask): void => {
    const changed = current === undefined || next.status !== current.status || next.lastUpdatedAt !== current.lastUpdatedAt;
    current = next;
    if (changed) options.onStatus?.(next);
  };
  const unwatch = host.watch((params) => {
    if (params['taskId'] !== taskId) return;
    try {
      const parsed = parseLegacyTask(params, taskId, 'notifications/tasks/status');
      // While tasks/result blocks, a push is only news for onStatus.
      if (blocked) return report(parsed);
      pushed = parsed;
      pause.wake();
    } catch {
      // A malformed push: the next tasks/get says what the task is.
    }
  });
  try {
    report(typeof task === 'string' ? await host.get(taskId, { signal }) : task);
    let interval: number | undefined;
    while (current!.status === 'working') {
      interval = host.nextPollMs(current!, interval);
      if (pushed === undefined) {
        await pause.for(interval, signal);
      }
      if (signal.aborted) return undefined;
      const next = pushed ?? (await host.get(taskId, { signal }));
      pushed = undefined;
      report(next);
    }
    if (current!.status === 'cancelled') {
      throw new McpError('tools/call', ErrorCode.InternalError, `Task ${taskId} was cancelled${current!.statusMessage === undefined ? '' : `: ${current!.statusMessage.slice(0, 300)}`}`, { taskId, status: 'cancelled' });
    }
    // input_required, completed or failed: tasks/result blocks until the task is final, and the
    // questions the task asks meanwhile reach the client's handlers as server requests.
    blocked = true;
    return await taskResult(host, taskId, signal);
  } finally {
    unwatch();
  }
}

/** `tasks/result`: exactly what the call would have answered, checked; a JSON-RPC error is the task's failure. */
async function taskResult(host: LegacyWaitHost, taskId: string, signal: AbortSignal): Promise<McpToolResult> {
  let result: McpResult;
  try {
    // Bounded by the wait (maxWaitMs, the caller's signal), not by the request timeout: it blocks by design.
    result = await host.request('tasks/result', { taskId }, { signal, timeoutMs: 0 });
  } catch (error) {
    if (error instanceof McpError && error.method === 'tasks/result') {
      throw new McpError('tools/call', error.code, `Task ${taskId} failed: ${error.message}`, { taskId, ...(error.data === undefined ? {} : { error: error.data }) });
    }
    throw error;
  }
  const related = isPlainObject(result._meta) ? result._meta[RELATED_TASK] : undefined;
  if (isPlainObject(related) && related['taskId'] !== taskId) {
    throw new McpError('tasks/result', ErrorCode.InternalError, `The server answered tasks/result for task ${JSON.stringify(taskId)} with the result of another task (${JSON.stringify(related['taskId'])?.slice(0, 100)})`);
  }
  if (!Array.isArray(result['content'])) throw new McpError('tasks/result', ErrorCode.InternalError, `The server answered tasks/result for task ${JSON.stringify(taskId)} with something that is not a tool result (no content array)`);
  return result as unknown as McpToolResult;
}
