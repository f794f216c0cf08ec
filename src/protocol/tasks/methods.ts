/** `tasks/get`, `tasks/update`, `tasks/cancel` (SEP-2663): 2026-07-28 only, for clients that declare the extension. */
import { TERMINAL_STATUSES, type TaskRecord } from '../../stores/tasks.js';
import { invalidParams } from '../errors.js';
import type { McpProtocolHandler } from '../handler.js';
import { plausibleAnswer } from '../mrtr.js';
import type { RequestContext } from '../context.js';
import { principalOf } from '../principal.js';
import { modernOnly, optionalObject, requireString, type MethodEntry } from '../methods/shared.js';
import { detailedTask, requireTasksExtension, taskRuntime } from './runtime.js';

async function findTask(params: Record<string, unknown>, context: RequestContext, handler: McpProtocolHandler): Promise<TaskRecord> {
  requireTasksExtension(context.client.capabilities);
  const taskId = requireString(params, 'taskId');
  const record = await taskRuntime(handler).store.get(taskId);
  // Tasks are bound to the principal that created them: another's task looks exactly like an unknown one.
  if (record === undefined || record.principal !== principalOf(context.authInfo)) throw invalidParams(`Invalid params: unknown task "${taskId}" (it never existed, or it expired)`);
  return record;
}

export const getTask: MethodEntry = {
  available: modernOnly,
  async handle(params, context, handler) {
    return detailedTask(await findTask(params, context, handler));
  },
};

export const updateTask: MethodEntry = {
  available: modernOnly,
  async handle(params, context, handler) {
    const record = await findTask(params, context, handler);
    const responses = optionalObject(params, 'inputResponses') ?? {};
    const runtime = taskRuntime(handler);
    const live = runtime.live(record.taskId);
    if (live === undefined || TERMINAL_STATUSES.has(record.status)) return {};
    let answered = false;
    // Answers to keys the task does not wait for (unknown, already answered, malformed) are ignored.
    for (const [key, answer] of Object.entries(responses)) {
      const waiter = live.waiting.get(key);
      if (waiter === undefined || !plausibleAnswer(waiter.request.method, answer)) continue;
      live.waiting.delete(key);
      waiter.resolve(answer);
      answered = true;
    }
    if (answered) await runtime.publishWaiting(record.taskId, live);
    return {};
  },
};

export const cancelTask: MethodEntry = {
  available: modernOnly,
  async handle(params, context, handler) {
    await taskRuntime(handler).cancel(await findTask(params, context, handler));
    return {};
  },
};
