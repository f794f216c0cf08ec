/**
 * How tasks reach across instances that share a TaskStore: a task's handler
 * and the answers it waits for live in the process that created it, while
 * `tasks/update`, `tasks/cancel` and `subscriptions/listen` may arrive
 * anywhere. Without a channel (one process) none of this is needed.
 * `mcpkit/redis` implements it on Redis pub/sub (RedisTaskChannel).
 */
import type { TaskRecord } from './tasks.js';

/** What one instance tells the instance running a task's handler. */
export type TaskSignal =
  | { type: 'input'; taskId: string; inputResponses: Record<string, unknown> }
  | { type: 'cancel'; taskId: string };

/**
 * Contract: delivery is at most once (a lost signal is covered by the store:
 * a cancelled task is already `cancelled` there, and its handler stops at its
 * next write). Listeners are called with well-formed values only.
 */
export interface TaskChannel {
  /** Sends `signal` to the instance running the task's handler (nothing when no instance runs it). */
  deliver(signal: TaskSignal): Promise<void>;
  /** Calls `listener` with the signals delivered to this instance; answers once they are heard. */
  receive(listener: (signal: TaskSignal) => void): Promise<() => void>;
  /** Tells every instance watching the task that it changed (the record as the store answered it). */
  changed(record: TaskRecord): Promise<void>;
  /** Calls `listener` with each change of `taskId` made on another instance; answers once they are heard. */
  watch(taskId: string, listener: (record: TaskRecord) => void): Promise<() => void>;
}
