/** The tasks extension's shapes as the client hands them out (kept apart so options.ts can name them). */
import type { McpToolResult, TaskStatus } from '../wire-types/index.js';
import type { AbortSignalLike } from '../protocol/connection.js';

/** A task as `tasks/get` (or a `notifications/tasks`) describes it. */
export interface ClientTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttlMs?: number;
  /** The interval the server suggests between two `tasks/get`. */
  pollIntervalMs?: number;
  /** `input_required`: the questions, by key. */
  inputRequests?: Record<string, unknown>;
  /** `completed`: what the call would have answered synchronously. */
  result?: McpToolResult;
  /** `failed`: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
}

export interface TaskWaitOptions {
  /** Aborting sends `tasks/cancel` and rejects with `McpTransportError('aborted')`; an AbortSignal or any `AbortSignalLike`. */
  signal?: AbortSignalLike;
  /** Longest wait for a final status (default: the client's `tasks.maxWaitMs`, 600 000 ms; 0: no bound). Then `tasks/cancel` and `McpTransportError('timeout')`. */
  maxWaitMs?: number;
  /** Follow the task on a `subscriptions/listen` stream (`notifications/tasks`) instead of polling at the server's interval; a slow poll stays as a safety net. */
  listen?: boolean;
  /** Each status the client sees, the first one included. */
  onStatus?: (task: ClientTask) => void;
}

/** How `callTool` treats a tool that can run as a task. */
export interface CallTaskOptions extends Omit<TaskWaitOptions, 'signal'> {
  /**
   * 2025-11-25: run a tool whose `execution.taskSupport` is `optional` (or one not
   * listed) as a task. `required` tools always are; 2026-07-28 servers decide themselves.
   */
  create?: boolean;
  /** 2025-11-25: the retention asked for (`task.ttl`). */
  ttlMs?: number;
}

/** A page of `tasks/list` (2025-11-25). */
export interface ClientTaskList {
  tasks: ClientTask[];
  nextCursor?: string;
}

/** The client's defaults for tasks (`new Client({ tasks })`); `false` does not declare the extension. */
export interface TaskDefaults {
  maxWaitMs?: number;
  listen?: boolean;
}
