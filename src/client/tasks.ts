/**
 * Tasks, client side. On 2026-07-28 the tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`):
 * a `tools/call` the server answers with a task handle is followed with `tasks/get`
 * (or `notifications/tasks` on a `subscriptions/listen` stream) until it is final,
 * the questions it asks are answered with the client's handlers through `tasks/update`,
 * and an abort or the wait bound sends `tasks/cancel`. Everything the server says is
 * checked: a task answer with another id, an unknown status or no result is an error.
 * On a 2025-11-25 session the same API speaks that revision's tasks (tasks-legacy.ts).
 */
import { isPlainObject } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/errors.js';
import { onAbort } from './abort.js';
import { PollPause } from './poll-pause.js';
import { McpError, McpTransportError } from './errors.js';
import type { Json, RequestOptions, TaskStartOptions } from './options.js';
import type { ClientTask, ClientTaskList, TaskDefaults, TaskWaitOptions } from './task-types.js';
import { awaitLegacyTask, callsAsTask, parseLegacyTask, taskOrResult, type LegacyTaskSupport } from './tasks-legacy.js';
import type { TaskStatus, ToolDescription } from '../wire-types/index.js';
import type { McpResult, McpToolResult } from '../wire-types/index.js';

export type { CallTaskOptions, ClientTask, ClientTaskList, TaskDefaults, TaskWaitOptions } from './task-types.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const FINAL: ReadonlySet<string> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** Bounds on the interval between two `tasks/get`: the server's, clamped; without one, a backoff. */
export const POLL = { firstMs: 100, backoff: 2, minMs: 20, maxMs: 5000, listenMs: 5000 } as const;
/** Input rounds one task may ask for (each answers at most 64 questions). */
const MAX_INPUT_ROUNDS = 256;

/** What the task runner needs from the client. */
export interface TaskHost {
  request(method: string, params: Json, options?: RequestOptions): Promise<McpResult>;
  inputs(requests: unknown, signal: AbortSignal | undefined): Promise<Json>;
  /** Starts a listen stream for `taskIds`; its `notifications/tasks` reach `onTask` until `signal` aborts. */
  listen(taskIds: string[], onTask: (params: Json) => void, signal: AbortSignal): void;
  /** 2025-11-25 sessions: what the server's `tasks` capability allows; undefined on 2026-07-28. */
  legacy(): LegacyTaskSupport | undefined;
  /** The listed tool of that name (its `execution.taskSupport`). */
  tool(name: string): ToolDescription | undefined;
  /** Each `notifications/tasks/status` until the returned function is called. */
  watch(onTask: (params: Json) => void): () => void;
  defaults: TaskDefaults;
}

/** True when a `tools/call` answer is a task handle (`CreateTaskResult`). */
export function isTaskHandle(result: unknown): result is Json & { taskId: string } {
  return isPlainObject(result) && result['resultType'] === 'task' && typeof result['taskId'] === 'string';
}

/** A task answer checked against what was asked: the same id, a known status, the fields that status brings. */
export function parseTask(value: unknown, taskId: string, method: string): ClientTask {
  const bad = (why: string): never => {
    throw new McpError(method, ErrorCode.InternalError, `The server answered ${method} for task ${JSON.stringify(taskId)} with ${why}`);
  };
  if (!isPlainObject(value)) return bad('something that is not an object');
  if (value['taskId'] !== taskId) return bad(`another task id (${JSON.stringify(value['taskId'])?.slice(0, 100)})`);
  const status = value['status'];
  if (typeof status !== 'string' || !STATUSES.has(status)) return bad(`an unknown status ${JSON.stringify(status)?.slice(0, 100)} (expected one of ${[...STATUSES].join(', ')})`);
  const task: ClientTask = { taskId, status: status as TaskStatus };
  for (const key of ['statusMessage', 'createdAt', 'lastUpdatedAt'] as const) if (typeof value[key] === 'string') task[key] = value[key];
  for (const key of ['ttlMs', 'pollIntervalMs'] as const) if (typeof value[key] === 'number' && Number.isFinite(value[key])) task[key] = value[key];
  if (status === 'input_required') {
    if (!isPlainObject(value['inputRequests'])) return bad('status input_required but no inputRequests object');
    task.inputRequests = value['inputRequests'];
  }
  if (status === 'completed') {
    if (!isPlainObject(value['result'])) return bad('status completed but no result object');
    task.result = value['result'] as unknown as McpToolResult;
  }
  if (status === 'failed') {
    const error = value['error'];
    task.error = isPlainObject(error) && typeof error['code'] === 'number' ? { code: error['code'], message: (typeof error['message'] === 'string' ? error['message'] : '').slice(0, 4096), ...(error['data'] === undefined ? {} : { data: error['data'] }) } : { code: ErrorCode.InternalError, message: 'the server named no error' };
  }
  return task;
}

/** The interval before the next `tasks/get`: the server's (clamped), else a backoff from the last one. */
export function nextPollMs(task: ClientTask, previousMs: number | undefined): number {
  if (task.pollIntervalMs !== undefined) return Math.min(POLL.maxMs, Math.max(POLL.minMs, task.pollIntervalMs));
  return previousMs === undefined ? POLL.firstMs : Math.min(POLL.maxMs, previousMs * POLL.backoff);
}

/** The final task's outcome: the call's result, or the error a failed or cancelled task means. */
function outcome(task: ClientTask): McpToolResult {
  if (task.status === 'completed') return task.result!;
  if (task.status === 'failed') return thrown(new McpError('tools/call', task.error!.code, `Task ${task.taskId} failed: ${task.error!.message}`, { taskId: task.taskId, ...(task.error!.data === undefined ? {} : { error: task.error!.data }) }));
  return thrown(new McpError('tools/call', ErrorCode.InternalError, `Task ${task.taskId} was cancelled${task.statusMessage === undefined ? '' : `: ${task.statusMessage.slice(0, 300)}`}`, { taskId: task.taskId, status: 'cancelled' }));
}

const thrown = (error: Error): never => {
  throw error;
};

/** A task operation the session's revision (or the server) does not have: refused before anything is sent. */
const unsupported = (method: string, message: string): McpError => new McpError(method, ErrorCode.MethodNotFound, message);

/** `client.tasks`: start a tool as a task, read, answer, cancel, and await one. */
export class ClientTasks {
  constructor(private readonly host: TaskHost) {}

  /**
   * Calls a tool and returns the task handle the server answered, or `{ result }`
   * when it answered at once (the tool runs no task; a session before 2025-11-25;
   * on 2025-11-25 a server without task-augmented calls, or a listed tool whose
   * `execution.taskSupport` forbids them).
   */
  async start(name: string, args?: Json, options: TaskStartOptions = {}): Promise<{ task: ClientTask } | { result: McpToolResult }> {
    const { ttlMs, ...request } = options;
    const params: Json = args === undefined ? { name } : { name, arguments: args };
    const legacy = this.host.legacy();
    if (legacy !== undefined) {
      // 2025-11-25: the client asks for a task (start always does, unless the listed tool forbids it).
      const asTask = callsAsTask(legacy, this.host.tool(name), true);
      if (asTask) params['task'] = ttlMs === undefined ? {} : { ttl: ttlMs };
      const answer = await this.host.request('tools/call', params, request);
      const created = asTask ? taskOrResult(answer) : undefined;
      return created === undefined ? { result: answer as unknown as McpToolResult } : { task: created };
    }
    const answer = await this.host.request('tools/call', params, request);
    if (!isTaskHandle(answer)) return { result: answer as unknown as McpToolResult };
    return { task: parseTask(answer, answer.taskId, 'tools/call') };
  }

  async get(taskId: string, options?: RequestOptions): Promise<ClientTask> {
    const answer = await this.host.request('tasks/get', { taskId }, options);
    return this.host.legacy() === undefined ? parseTask(answer, taskId, 'tasks/get') : parseLegacyTask(answer, taskId, 'tasks/get');
  }

  /** Answers the task's questions by key (`tasks/update`; 2026-07-28 only: on 2025-11-25 the questions are server requests the handlers answer). */
  async update(taskId: string, inputResponses: Json, options?: RequestOptions): Promise<void> {
    if (this.host.legacy() !== undefined) throw unsupported('tasks/update', '2025-11-25 has no tasks/update: a task asks its questions as elicitation or sampling requests, which the client\'s handlers answer while client.tasks.result waits');
    await this.host.request('tasks/update', { taskId, inputResponses }, options);
  }

  /** Asks the server to cancel the task; a task already final keeps its status (2025-11-25: the server answers -32602). */
  async cancel(taskId: string, options?: RequestOptions): Promise<void> {
    const legacy = this.host.legacy();
    if (legacy !== undefined && !legacy.cancel) throw unsupported('tasks/cancel', 'The server does not declare tasks.cancel: it cannot cancel its tasks');
    await this.host.request('tasks/cancel', { taskId }, options);
  }

  /** The server's tasks, a page at a time (`tasks/list`, 2025-11-25 only: the 2026-07-28 extension lists none). */
  async list(options: RequestOptions & { cursor?: string } = {}): Promise<ClientTaskList> {
    const legacy = this.host.legacy();
    if (legacy === undefined) throw unsupported('tasks/list', 'The tasks extension (2026-07-28) has no tasks/list: keep the task ids callTool and start hand out');
    if (!legacy.list) throw unsupported('tasks/list', 'The server does not declare tasks.list');
    const { cursor, ...request } = options;
    const answer = await this.host.request('tasks/list', cursor === undefined ? {} : { cursor }, request);
    if (!Array.isArray(answer['tasks'])) throw new McpError('tasks/list', ErrorCode.InternalError, 'The server answered tasks/list without a tasks array');
    const page: ClientTaskList = { tasks: answer['tasks'].slice(0, 10_000).map((task) => parseLegacyTask(task, undefined, 'tasks/list')) };
    if (typeof answer['nextCursor'] === 'string') page.nextCursor = answer['nextCursor'];
    return page;
  }

  /** Whether `callTool` runs the tool as a 2025-11-25 task (`asked`: the caller's `task.create`). */
  callsAsTask(name: string, asked: boolean): boolean {
    const legacy = this.host.legacy();
    return legacy !== undefined && callsAsTask(legacy, this.host.tool(name), asked);
  }

  /**
   * Waits until the task is final and returns the call's result: `completed`
   * resolves (an `isError` result too), `failed` rejects with `McpError` carrying
   * the task's error code, `cancelled` rejects with `McpError` (`data.status: 'cancelled'`).
   * Questions the task asks are answered with the client's handlers. On 2025-11-25 the
   * result is `tasks/result`'s: a `failed` task's `isError` result resolves, its JSON-RPC
   * error rejects as above.
   */
  async result(task: ClientTask | string, options: TaskWaitOptions = {}): Promise<McpToolResult> {
    const taskId = typeof task === 'string' ? task : task.taskId;
    const maxWaitMs = options.maxWaitMs ?? this.host.defaults.maxWaitMs ?? 600_000;
    const listen = options.listen ?? this.host.defaults.listen ?? false;
    const stop = new AbortController();
    const unlinkCaller = options.signal === undefined ? () => undefined : onAbort(options.signal, () => stop.abort(options.signal?.reason));
    const overdue = maxWaitMs > 0 ? setTimeout(() => stop.abort(new McpTransportError('timeout', `Task ${taskId} was not final within ${maxWaitMs} ms (maxWaitMs); it was cancelled`)), maxWaitMs) : undefined;
    try {
      const legacy = this.host.legacy() !== undefined;
      const result = legacy ? await awaitLegacyTask({ request: (method, params, o) => this.host.request(method, params, o), get: (id, o) => this.get(id, o), watch: (onTask) => this.host.watch(onTask), nextPollMs }, task, options, stop.signal) : await this.#awaitModern(task, listen, options, stop.signal);
      if (stop.signal.aborted || result === undefined) throw stop.signal.reason;
      return result;
    } catch (error) {
      if (!stop.signal.aborted) throw error;
      // Aborted or overdue: the server is told, best effort, and the caller gets why.
      this.cancel(taskId).catch(() => undefined);
      const reason: unknown = stop.signal.reason;
      if (reason instanceof McpTransportError) throw reason;
      throw new McpTransportError('aborted', `Waiting for task ${taskId} was aborted; it was cancelled`, { cause: reason });
    } finally {
      clearTimeout(overdue);
      unlinkCaller();
      stop.abort();
    }
  }

  /** The 2026-07-28 wait: undefined when `signal` aborted first. */
  async #awaitModern(task: ClientTask | string, listen: boolean, options: TaskWaitOptions, signal: AbortSignal): Promise<McpToolResult | undefined> {
    const taskId = typeof task === 'string' ? task : task.taskId;
    const pause = new PollPause();
    let pushed: ClientTask | undefined;
    if (listen) {
      this.host.listen(
        [taskId],
        (params) => {
          try {
            pushed = parseTask(params, taskId, 'notifications/tasks');
            pause.wake();
          } catch {
            // A malformed push: the next tasks/get says what the task is.
          }
        },
        signal,
      );
    }
    let current = typeof task === 'string' ? await this.get(taskId, { signal }) : task;
    options.onStatus?.(current);
    const answered = new Set<string>();
    let rounds = 0;
    let interval: number | undefined;
    while (!FINAL.has(current.status)) {
      if (current.status === 'input_required') {
        const open = Object.fromEntries(Object.entries(current.inputRequests ?? {}).filter(([key]) => !answered.has(key)));
        if (Object.keys(open).length > 0) {
          if (++rounds > MAX_INPUT_ROUNDS) throw new McpError('tasks/update', ErrorCode.InternalError, `Task ${taskId} asked for input more than ${MAX_INPUT_ROUNDS} times`);
          const inputResponses = await this.host.inputs(open, signal);
          for (const key of Object.keys(open)) answered.add(key);
          await this.update(taskId, inputResponses, { signal });
        }
      }
      // Listening: one poll at the server's interval (a change before the stream was open is not pushed), then the slow safety net.
      interval = listen && interval !== undefined ? POLL.listenMs : nextPollMs(current, interval);
      // A push that came while the questions were answered is news already: no wait.
      if (pushed === undefined) await pause.for(interval, signal);
      if (signal.aborted) break;
      const next = pushed ?? (await this.get(taskId, { signal }));
      pushed = undefined;
      if (next.status !== current.status || next.lastUpdatedAt !== current.lastUpdatedAt) options.onStatus?.(next);
      current = next;
    }
    if (signal.aborted) return undefined;
    return outcome(current);
  }
}
