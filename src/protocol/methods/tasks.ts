/** `tasks/get`, `tasks/update`, `tasks/cancel` (SEP-2663): 2026-07-28 only, for clients that declare the extension. */
import type { TaskRecord } from '../../stores/tasks.js';
import { invalidParams } from '../wire/errors.js';
import { principalOf } from '../request/principal.js';
import type { MethodContext } from '../scopes/method-context.js';
import { MODERN_ONLY } from '../wire/method-facts.js';
import { optionalObject, requireString, type RequestMethod } from './shared.js';
import { detailedTask, TASKS_EXTENSION } from '../scopes/task-runtime.js';

async function findTask(params: Record<string, unknown>, context: MethodContext): Promise<TaskRecord> {
  const taskId = requireString(params, 'taskId');
  const record = await context.server.tasks.store.get(taskId);
  // Tasks are bound to the principal that created them: another's task looks exactly like an unknown one.
  if (record === undefined || record.principal !== principalOf(context.authInfo)) throw invalidParams(`Invalid params: unknown task "${taskId}" (it never existed, or it expired)`);
  return record;
}

/** What every tasks method shares: 2026-07-28, for clients that declare the extension, routed by task id. */
const TASK_METHOD = { kind: 'request', eras: MODERN_ONLY, clientExtensions: [TASKS_EXTENSION], routingName: 'taskId' } as const;

export const getTask: RequestMethod = {
  ...TASK_METHOD,
  method: 'tasks/get',
  async handle(params, context) {
    return detailedTask(await findTask(params, context));
  },
};

export const updateTask: RequestMethod = {
  ...TASK_METHOD,
  method: 'tasks/update',
  async handle(params, context) {
    const record = await findTask(params, context);
    await context.server.tasks.answer(record, optionalObject(params, 'inputResponses') ?? {});
    return {};
  },
};

export const cancelTask: RequestMethod = {
  ...TASK_METHOD,
  method: 'tasks/cancel',
  async handle(params, context) {
    await context.server.tasks.cancel(await findTask(params, context));
    return {};
  },
};
