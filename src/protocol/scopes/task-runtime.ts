/**
 * The tasks extension (SEP-2663) for 2026-07-28 `tools/call`: creating a task,
 * running the tool in the background with its own abort signal, and keeping
 * the task record in the TaskStore up to date (status, pending input, result).
 */
import { requireExtensions } from '../extensions.js';
import { ErrorCode, isJsonRpcProtocolError, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import { MemoryTaskStore, TaskLimitError, TERMINAL_STATUSES, type TaskInputRequest, type TaskPatch, type TaskRecord, type TaskStore } from '../../stores/tasks.js';
import type { TaskChannel, TaskSignal } from '../../stores/task-channel.js';
import { plausibleAnswer } from '../wire/answers.js';
import { LazyAbort } from '../request/abort.js';
import { RequestContext, type ClientRequestOptions, type InputBroker } from '../request/context.js';
import type { Logger, ServerTaskOptions } from './options.js';
import { mapError } from '../request/error-map.js';
import type { CreateMessageParams, ElicitParams } from '../../wire-types/index.js';
import { isPlainObject } from '../../jsonrpc/message.js';
import { ownerOf } from '../request/owner.js';
import { principalOf } from '../request/principal.js';
import type { ErrorCodeName } from '../../errors/codes.js';
import { unrefTimer } from '../../util/timers.js';

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

/** A task waited for input longer than its timeout: it ends `failed` with this error. */
export class TaskInputTimeoutError extends JsonRpcProtocolError {
  readonly errorCode: ErrorCodeName = 'task_input_timeout';
  constructor(method: string, timeoutMs: number) {
    super(ErrorCode.InternalError, `Task input timed out: the client did not answer ${method} within ${timeoutMs} ms (tasks.inputTimeoutMs), so the task failed`, { timeoutMs });
  }
}

/** How long a task waits for an answer to one question, unless the call sets its own timeoutMs. */
export const DEFAULT_TASK_INPUT_TIMEOUT_MS = 600_000;

/** A store limit as the JSON-RPC error the caller sees. */
function limitError(error: TaskLimitError): JsonRpcProtocolError {
  return new JsonRpcProtocolError(ErrorCode.InternalError, error.message, { limit: error.limit });
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
  /** Stops the timeout without settling. */
  dispose(): void;
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

/**
 * The task store of a server and the handlers it runs (one per server, shared by its connections).
 * With a TaskChannel (several instances on one store), input and cancellation for a task whose
 * handler runs elsewhere travel to that instance, and changes reach watchers on every instance.
 */
export class TaskRuntime {
  readonly store: TaskStore;
  readonly #live = new Map<string, LiveTask>();
  /** Listen streams waiting for a task's status changes (notifications/tasks), by task id. */
  readonly #watchers = new Map<string, Set<(record: TaskRecord) => void>>();
  readonly #logger: Logger | undefined;
  readonly #channel: TaskChannel | undefined;
  /** Signals for this instance's tasks are heard (subscribed before the first task is created). */
  #receiving: Promise<unknown> | undefined;
  /** Changes made on other instances, one channel watch per task followed here. */
  readonly #remote = new Map<string, Promise<() => void>>();

  readonly inputTimeoutMs: number;

  constructor(options: ServerTaskOptions | undefined, logger: Logger | undefined) {
    this.#logger = logger;
    this.store = options?.store ?? new MemoryTaskStore();
    this.#channel = options?.channel;
    this.inputTimeoutMs = options?.inputTimeoutMs ?? DEFAULT_TASK_INPUT_TIMEOUT_MS;
  }

  /**
   * Calls `watcher` with the task after each change (its status, result, pending input), made
   * here or, with a channel, on another instance; answers the unwatch once changes are heard.
   */
  async watch(taskId: string, watcher: (record: TaskRecord) => void): Promise<() => void> {
    let set = this.#watchers.get(taskId);
    if (set === undefined) this.#watchers.set(taskId, (set = new Set()));
    set.add(watcher);
    const unwatch = (): void => {
      set.delete(watcher);
      if (set.size > 0 || this.#watchers.get(taskId) !== set) return;
      this.#watchers.delete(taskId);
      const remote = this.#remote.get(taskId);
      this.#remote.delete(taskId);
      remote?.then((stop) => stop(), () => undefined);
    };
    if (this.#channel === undefined) return unwatch;
    let remote = this.#remote.get(taskId);
    if (remote === undefined) {
      const watching = this.#channel.watch(taskId, (record) => this.#notify(record));
      this.#remote.set(taskId, (remote = watching));
      watching.catch(() => {
        if (this.#remote.get(taskId) === watching) this.#remote.delete(taskId);
      });
    }
    try {
      await remote;
    } catch (error) {
      unwatch();
      throw error;
    }
    return unwatch;
  }

  #notify(record: TaskRecord): void {
    const watchers = this.#watchers.get(record.taskId);
    if (watchers !== undefined) for (const watcher of watchers) watcher(record);
  }

  /** With a channel: hears input and cancellation for the tasks this instance runs (once; retried after a failure). */
  #listen(channel: TaskChannel): Promise<unknown> {
    if (this.#receiving !== undefined) return this.#receiving;
    const receiving = channel.receive((signal) => this.#signalled(signal));
    this.#receiving = receiving;
    receiving.catch(() => {
      if (this.#receiving === receiving) this.#receiving = undefined;
    });
    return receiving;
  }

  #signalled(signal: TaskSignal): void {
    const live = this.#live.get(signal.taskId);
    if (live === undefined) return;
    if (signal.type === 'cancel') this.#end(signal.taskId, live, new TaskCancelledError());
    else this.#logged(this.#answer(signal.taskId, live, signal.inputResponses));
  }

  /** Creates a task charged to the caller's quota and bound to its principal. */
  async create(abort: LazyAbort, context: RequestContext): Promise<{ record: TaskRecord; live: LiveTask }> {
    // Input and cancellation posted to another instance must be heard here before anyone knows the task.
    if (this.#channel !== undefined) await this.#listen(this.#channel);
    let record: TaskRecord;
    try {
      record = await this.store.create({ owner: ownerOf(context.authInfo, context.requestInfo), principal: principalOf(context.authInfo) });
    } catch (error) {
      throw error instanceof TaskLimitError ? limitError(error) : error;
    }
    const live: LiveTask = { abort, waiting: new Map(), counters: {}, writes: Promise.resolve() };
    this.#live.set(record.taskId, live);
    return { record, live };
  }

  /** Queues a store write after this task's earlier ones; answers (or fails) when it is done. */
  write(taskId: string, live: LiveTask | undefined, build: () => TaskPatch): Promise<void> {
    const run = async (): Promise<void> => {
      const patch = build();
      const record = await this.store.update(taskId, patch);
      if (record === undefined) return;
      if (TERMINAL_STATUSES.has(record.status) && record.status !== patch.status) {
        // It ended elsewhere (cancelled on another instance, its lease ran out): stop the handler here too.
        if (live !== undefined && this.#live.get(taskId) === live) {
          this.#end(taskId, live, record.status === 'cancelled' ? new TaskCancelledError() : new Error(record.error?.message ?? `The task ended ${record.status}`));
        }
        return;
      }
      this.#notify(record);
      this.#channel?.changed(record).catch((error: unknown) => this.#logger?.error?.('mcpkit: a task change could not be published', error));
    };
    if (live === undefined) return run();
    const next = live.writes.then(run);
    // The chain only keeps writes in order: `next` carries the failure to its caller.
    live.writes = next.catch(() => undefined);
    return next;
  }

  #logged(write: Promise<void>, what = 'task store update failed'): void {
    write.catch((error: unknown) => this.#logger?.error?.(`mcpkit: ${what}`, error));
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

  /**
   * A call to ctx.elicit/sample/listRoots inside a running task: waits for
   * `tasks/update`. A question too large to store fails the call; no answer in
   * time fails the whole task.
   */
  waitForInput(taskId: string, live: LiveTask, method: string, params: Record<string, unknown>, options: ClientRequestOptions): Promise<unknown> {
    if (live.abort.aborted) return Promise.reject(live.abort.reason instanceof Error ? live.abort.reason : new TaskCancelledError());
    const kind = KIND[method] ?? 'input';
    const n = (live.counters[kind] = (live.counters[kind] ?? 0) + 1);
    const key = options.key ?? `${kind}_${n}`;
    const timeoutMs = options.timeoutMs ?? this.inputTimeoutMs;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => this.#fail(taskId, live, new TaskInputTimeoutError(method, timeoutMs)), timeoutMs);
      unrefTimer(timer);
      const waiter: Waiter = {
        request: { method, params },
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
        dispose: () => clearTimeout(timer),
      };
      live.waiting.set(key, waiter);
      this.publishWaiting(taskId, live).catch((error: unknown) => {
        if (live.waiting.get(key) !== waiter) return;
        live.waiting.delete(key);
        waiter.reject(error instanceof TaskLimitError ? limitError(error) : error instanceof Error ? error : new Error(String(error)));
        this.#logged(this.publishWaiting(taskId, live));
      });
    });
  }

  /** Stops a running task's handler here: aborts its signal with `reason` and rejects its pending input. */
  #end(taskId: string, live: LiveTask, reason: Error): void {
    this.#live.delete(taskId);
    live.abort.abort(reason);
    for (const waiter of live.waiting.values()) waiter.reject(reason);
    live.waiting.clear();
  }

  /** Ends a running task `failed` with `error`: aborts its handler and drops its pending input. */
  #fail(taskId: string, live: LiveTask, error: JsonRpcProtocolError): void {
    if (this.#live.get(taskId) !== live) return;
    this.#end(taskId, live, error);
    const wire = { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
    this.#logged(this.write(taskId, live, () => ({ status: 'failed', error: wire, inputRequests: undefined })));
  }

  /** The handler settled: the task ends completed or failed (a cancelled or timed-out task stays as it is). */
  settle(taskId: string, live: LiveTask, outcome: { result: unknown } | { error: unknown }): Promise<void> {
    if (this.#live.get(taskId) !== live) return Promise.resolve();
    this.#live.delete(taskId);
    // Questions the handler left unanswered stop counting toward the timeout.
    for (const waiter of live.waiting.values()) waiter.dispose();
    live.waiting.clear();
    const final = (): TaskPatch => {
      if ('result' in outcome) {
        const result = isPlainObject(outcome.result) ? { ...outcome.result, resultType: 'complete' } : { resultType: 'complete' };
        return { status: 'completed', result, inputRequests: undefined };
      }
      const mapped = mapError(outcome.error, this.#logger, undefined, 'tools/call');
      const error = isJsonRpcProtocolError(mapped)
        ? { code: mapped.code, message: mapped.message, ...(mapped.data !== undefined && { data: mapped.data }) }
        : { code: ErrorCode.InternalError, message: 'Internal error' };
      return { status: 'failed', error, inputRequests: undefined };
    };
    const written = this.write(taskId, live, final).catch((error: unknown) => {
      if (!(error instanceof TaskLimitError)) throw error;
      // The outcome cannot be kept (too large, or the owner is out of bytes): the task fails saying so.
      return this.write(taskId, live, () => ({ status: 'failed', error: { code: ErrorCode.InternalError, message: error.message, data: { limit: error.limit } }, inputRequests: undefined }));
    });
    this.#logged(written);
    // #logged above reports the failure through the server's logger.
    return written.catch(() => undefined);
  }

  /** `tasks/cancel`: aborts the handler and ends the task cancelled (a finished task stays as it is). */
  async cancel(record: TaskRecord): Promise<void> {
    if (TERMINAL_STATUSES.has(record.status)) return;
    const live = this.#live.get(record.taskId);
    if (live !== undefined) this.#end(record.taskId, live, new TaskCancelledError());
    await this.write(record.taskId, live, () => ({ status: 'cancelled', inputRequests: undefined }));
    // Running elsewhere: the store says cancelled already; the handler's instance aborts it (or it stops at its next write).
    if (live === undefined && this.#channel !== undefined) this.#logged(this.#channel.deliver({ type: 'cancel', taskId: record.taskId }), 'a task cancellation could not be sent to its instance');
  }

  /**
   * `tasks/update`: answers go to the handler waiting for them, here or on the instance
   * running it. Answers to keys it does not wait for (unknown, already answered, malformed) are ignored.
   */
  async answer(record: TaskRecord, responses: Record<string, unknown>): Promise<void> {
    if (TERMINAL_STATUSES.has(record.status)) return;
    const live = this.#live.get(record.taskId);
    if (live !== undefined) return this.#answer(record.taskId, live, responses);
    if (this.#channel !== undefined && Object.keys(responses).length > 0) await this.#channel.deliver({ type: 'input', taskId: record.taskId, inputResponses: responses });
  }

  async #answer(taskId: string, live: LiveTask, responses: Record<string, unknown>): Promise<void> {
    let answered = false;
    for (const [key, answer] of Object.entries(responses)) {
      const waiter = live.waiting.get(key);
      if (waiter === undefined || !plausibleAnswer(waiter.request.method, answer)) continue;
      live.waiting.delete(key);
      waiter.resolve(answer);
      answered = true;
    }
    if (answered) await this.publishWaiting(taskId, live);
  }
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
  runtime: TaskRuntime,
  run: (ctx: RequestContext) => Promise<unknown>,
): Promise<unknown> {
  if (!context.client.supports(TASKS_EXTENSION)) {
    if (options.task === 'required') requireExtensions(context.client.capabilities, [TASKS_EXTENSION]);
    return run(context);
  }
  const abort = new LazyAbort();
  let task: { record: TaskRecord; live: LiveTask } | undefined;
  const broker: InputBroker = {
    request: (method, params, requestOptions) =>
      task === undefined ? throughRequest(context, method, params, requestOptions) : runtime.waitForInput(task.record.taskId, task.live, method, params, requestOptions),
  };
  const commit = async (): Promise<Record<string, unknown>> => {
    task = await runtime.create(abort, context);
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
    if (task !== undefined) void runtime.settle(task.record.taskId, task.live, outcome);
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
