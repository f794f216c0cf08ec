/**
 * The tasks extension (SEP-2663) for 2026-07-28 `tools/call`: creating a task,
 * running the tool in the background with its own abort signal, and keeping
 * the task record in the TaskStore up to date (status, pending input, result).
 */
import { ErrorCode, isJsonRpcProtocolError } from '../../jsonrpc/errors.js';
import { MemoryTaskStore, TERMINAL_STATUSES, type TaskInputRequest, type TaskRecord, type TaskStore } from '../../stores/tasks.js';
import { LazyAbort } from '../abort.js';
import { RequestContext, type ClientRequestOptions, type InputBroker } from '../context.js';
import type { McpProtocolHandlerDeps } from '../deps.js';
import { mapError } from '../error-map.js';
import { MissingClientCapabilityError } from '../errors.js';
import type { McpProtocolHandler } from '../handler.js';
import type { ClientCapabilities, CreateMessageParams, ElicitParams, ServerCapabilities } from '../types.js';
import { isPlainObject } from '../../jsonrpc/message.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How a tool takes part in tasks: `optional` runs as a task when the client allows it, `required` only as a task. */
export type TaskSupport = 'optional' | 'required';

/** What a tool declares: its support, and whether its handler starts the task itself (`ctx.startTask()`). */
export interface ToolTaskOptions {
  readonly task: TaskSupport;
  readonly taskStart: 'immediate' | 'manual';
}

/** Thrown into a task's handler (its signal and pending input) when the client cancels it. */
export class TaskCancelledError extends Error {
  override readonly name = 'TaskCancelledError';
  constructor() {
    super('The task was cancelled by the client');
  }
}


export function clientDeclaresTasks(capabilities: ClientCapabilities): boolean {
  const extensions = capabilities.extensions;
  return isPlainObject(extensions) && isPlainObject(extensions[TASKS_EXTENSION]);
}

export function requireTasksExtension(capabilities: ClientCapabilities): void {
  if (!clientDeclaresTasks(capabilities)) {
    throw new MissingClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } }, `extensions["${TASKS_EXTENSION}"]`);
  }
}

/** The task options a registered tool carries, if any. */
export function taskOptionsOf(tool: unknown): ToolTaskOptions | undefined {
  const record = tool as { task?: unknown; taskStart?: unknown } | undefined;
  const task = record?.task;
  if (task !== 'optional' && task !== 'required') return undefined;
  return { task, taskStart: record?.taskStart === 'manual' ? 'manual' : 'immediate' };
}

interface Waiter {
  readonly request: TaskInputRequest;
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

/** A task whose handler runs in this process. */
interface LiveTask {
  readonly abort: LazyAbort;
  readonly waiting: Map<string, Waiter>;
  readonly counters: Record<string, number>;
  /** Store writes of this task, in order. */
  writes: Promise<unknown>;
}

const KIND: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/** The task store of a server and the handlers it runs (one per server, shared by its connections). */
export class TaskRuntime {
  readonly store: TaskStore;
  readonly #live = new Map<string, LiveTask>();
  readonly #deps: McpProtocolHandlerDeps;

  constructor(deps: McpProtocolHandlerDeps) {
    this.#deps = deps;
    this.store = deps.options?.taskStore ?? new MemoryTaskStore();
  }

  live(taskId: string): LiveTask | undefined {
    return this.#live.get(taskId);
  }

  async create(abort: LazyAbort): Promise<{ record: TaskRecord; live: LiveTask }> {
    const record = await this.store.create();
    const live: LiveTask = { abort, waiting: new Map(), counters: {}, writes: Promise.resolve() };
    this.#live.set(record.taskId, live);
    return { record, live };
  }

  /** Queues a store write after this task's earlier ones; answers when it is done. */
  write(taskId: string, live: LiveTask | undefined, build: () => Parameters<TaskStore['update']>[1]): Promise<void> {
    const run = async (): Promise<void> => {
      await this.store.update(taskId, build());
    };
    if (live === undefined) return run();
    const next = live.writes.then(run).catch((error: unknown) => this.#deps.logger?.error?.('mcpkit: task store update failed', error));
    live.writes = next;
    return next;
  }

  /** Publishes what the task waits for: input_required with the pending keys, or working again. */
  publishWaiting(taskId: string, live: LiveTask): Promise<void> {
    return this.write(taskId, live, () => {
      if (live.waiting.size === 0) return { status: 'working', inputRequests: undefined };
      const inputRequests: Record<string, TaskInputRequest> = {};
      for (const [key, waiter] of live.waiting) inputRequests[key] = waiter.request;
      return { status: 'input_required', inputRequests };
    });
  }

  /** A call to ctx.elicit/sample/listRoots inside a running task: waits for `tasks/update`. */
  waitForInput(taskId: string, live: LiveTask, method: string, params: Record<string, unknown>, options: ClientRequestOptions): Promise<unknown> {
    if (live.abort.aborted) return Promise.reject(live.abort.reason instanceof Error ? live.abort.reason : new TaskCancelledError());
    const kind = KIND[method] ?? 'input';
    const n = (live.counters[kind] = (live.counters[kind] ?? 0) + 1);
    const key = options.key ?? `${kind}_${n}`;
    return new Promise<unknown>((resolve, reject) => {
      live.waiting.set(key, { request: { method, params }, resolve, reject });
      void this.publishWaiting(taskId, live);
    });
  }

  /** The handler settled: the task ends completed or failed (a cancelled task stays cancelled). */
  settle(taskId: string, live: LiveTask, outcome: { result: unknown } | { error: unknown }, handler: McpProtocolHandler): Promise<void> {
    this.#live.delete(taskId);
    if (live.abort.reason instanceof TaskCancelledError) return Promise.resolve();
    return this.write(taskId, live, () => {
      if ('result' in outcome) {
        const result = isPlainObject(outcome.result) ? { ...outcome.result, resultType: 'complete' } : { resultType: 'complete' };
        return { status: 'completed', result, inputRequests: undefined };
      }
      const mapped = mapError(outcome.error, handler, undefined, 'tools/call');
      const error = isJsonRpcProtocolError(mapped)
        ? { code: mapped.code, message: mapped.message, ...(mapped.data !== undefined && { data: mapped.data }) }
        : { code: ErrorCode.InternalError, message: 'Internal error' };
      return { status: 'failed', error, inputRequests: undefined };
    });
  }

  /** `tasks/cancel`: aborts the handler and ends the task cancelled (a finished task stays as it is). */
  async cancel(record: TaskRecord): Promise<void> {
    if (TERMINAL_STATUSES.has(record.status)) return;
    const live = this.#live.get(record.taskId);
    this.#live.delete(record.taskId);
    if (live !== undefined) {
      const reason = new TaskCancelledError();
      live.abort.abort(reason);
      for (const waiter of live.waiting.values()) waiter.reject(reason);
      live.waiting.clear();
    }
    await this.write(record.taskId, live, () => ({ status: 'cancelled', inputRequests: undefined }));
  }
}

const runtimes = new WeakMap<McpProtocolHandlerDeps, TaskRuntime>();

export function taskRuntime(handler: McpProtocolHandler): TaskRuntime {
  let runtime = runtimes.get(handler.deps);
  if (runtime === undefined) {
    runtime = new TaskRuntime(handler.deps);
    runtimes.set(handler.deps, runtime);
  }
  return runtime;
}

/** The fields every wire form of a task carries. */
export function taskFields(record: TaskRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
  };
  if (record.pollIntervalMs !== undefined) out['pollIntervalMs'] = record.pollIntervalMs;
  if (record.statusMessage !== undefined) out['statusMessage'] = record.statusMessage;
  return out;
}

/** `tasks/get`: the task with what its status inlines (result, error or pending input). */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const out = taskFields(record);
  if (record.status === 'completed' && record.result !== undefined) out['result'] = record.result;
  if (record.status === 'failed' && record.error !== undefined) out['error'] = record.error;
  if (record.status === 'input_required' && record.inputRequests !== undefined) out['inputRequests'] = record.inputRequests;
  return out;
}

/** Before the task exists, input goes through the request itself (a Multi Round-Trip Request). */
function throughRequest(context: RequestContext, method: string, params: Record<string, unknown>, options: ClientRequestOptions): Promise<unknown> {
  switch (method) {
    case 'elicitation/create':
      return context.elicit(params as unknown as ElicitParams, options);
    case 'sampling/createMessage':
      return context.sample(params as unknown as CreateMessageParams, options);
    default:
      return context.listRoots(options);
  }
}

/**
 * A modern `tools/call` of a tool that declares task support. Without the
 * client's declaration an `optional` tool runs synchronously and a `required`
 * one is refused (-32021). Otherwise the answer is a CreateTaskResult and the
 * handler runs on in the background. With `taskStart: 'manual'` the handler
 * runs as part of the request (it may ask for input there) until it calls
 * `ctx.startTask()`; if it finishes first, its result is the answer.
 */
export async function callToolAsTask(
  options: ToolTaskOptions,
  context: RequestContext,
  handler: McpProtocolHandler,
  run: (ctx: RequestContext) => Promise<unknown>,
): Promise<unknown> {
  if (!clientDeclaresTasks(context.client.capabilities)) {
    if (options.task === 'required') requireTasksExtension(context.client.capabilities);
    return run(context);
  }
  const runtime = taskRuntime(handler);
  const abort = new LazyAbort();
  let task: { record: TaskRecord; live: LiveTask } | undefined;
  const broker: InputBroker = {
    request: (method, params, requestOptions) =>
      task === undefined ? throughRequest(context, method, params, requestOptions) : runtime.waitForInput(task.record.taskId, task.live, method, params, requestOptions),
  };
  const commit = async (): Promise<Record<string, unknown>> => {
    task = await runtime.create(abort);
    return { ...taskFields(task.record), resultType: 'task' };
  };
  let startTask: (() => Promise<void>) | undefined;
  const taskContext = new RequestContext({
    requestId: context.requestId,
    method: context.method,
    abort,
    protocolVersion: context.protocolVersion,
    era: context.era,
    client: context.client,
    sessionId: context.sessionId,
    authInfo: context.authInfo,
    requestInfo: context.requestInfo,
    meta: context.meta,
    logLevel: context.logLevel,
    // Request-scoped notifications have no stream once the request was answered.
    send: (message) => (task === undefined ? context.sink(message) : undefined),
    broker,
    host: context.host,
    closeStream: undefined,
    requestState: context.requestState,
    startTask: () => startTask?.() ?? Promise.resolve(),
  });
  // Until the task exists, the request's cancellation is the handler's.
  const requestSignal = context.signal;
  const onRequestAbort = (): void => {
    if (task === undefined) abort.abort(requestSignal.reason);
  };
  if (requestSignal.aborted) onRequestAbort();
  else requestSignal.addEventListener('abort', onRequestAbort, { once: true });
  const settleInBackground = (outcome: { result: unknown } | { error: unknown }): void => {
    requestSignal.removeEventListener('abort', onRequestAbort);
    if (task !== undefined) void runtime.settle(task.record.taskId, task.live, outcome, handler);
  };

  if (options.taskStart === 'immediate') {
    const created = await commit();
    requestSignal.removeEventListener('abort', onRequestAbort);
    run(taskContext).then((result) => settleInBackground({ result }), (error: unknown) => settleInBackground({ error }));
    return created;
  }
  return new Promise<unknown>((resolve, reject) => {
    startTask = async () => {
      if (task !== undefined) return;
      try {
        resolve(await commit());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    };
    run(taskContext).then(
      (result) => {
        if (task === undefined) resolve(result);
        settleInBackground({ result });
      },
      (error: unknown) => {
        if (task === undefined) reject(error instanceof Error ? error : new Error(String(error)));
        settleInBackground({ error });
      },
    );
  });
}

const discovered = new WeakMap<object, { version: number; view: { base: ServerCapabilities; caps: ServerCapabilities } }>();

/**
 * The capabilities `server/discover` declares: with the tasks extension once some
 * tool supports tasks. `initialize` (legacy) never declares it.
 */
export function withTasksExtension(capabilities: ServerCapabilities, handler: McpProtocolHandler): ServerCapabilities {
  const tools = handler.deps.tools;
  const hit = discovered.get(tools);
  if (hit !== undefined && hit.version === tools.version && hit.view.base === capabilities) return hit.view.caps;
  const supported = tools.list().some((tool) => taskOptionsOf(tool) !== undefined);
  const caps = supported ? { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } } : capabilities;
  discovered.set(tools, { version: tools.version, view: { base: capabilities, caps } });
  return caps;
}
