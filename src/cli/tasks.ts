/**
 * A `tools/call` the server answered with a task (2026-07-28 tasks extension, docs/tasks.md):
 * awaited through the client's own tasks API (`client.tasks.result`), its statuses reported on
 * stderr, its questions answered by the client's handlers; what the call would have answered
 * synchronously comes back. A failed or cancelled task is a protocol error (exit 3).
 */
import { McpError, type Client } from '../client.js';
import { CliError, Exit } from './errors.js';
import type { Json } from './json.js';

export const isTaskResult = (result: Json): boolean => result['resultType'] === 'task' && typeof result['taskId'] === 'string';

export async function awaitTask(client: Client, created: Json, report: (line: string) => void): Promise<Json> {
  const taskId = String(created['taskId']);
  try {
    // The person at the terminal ends the wait (Ctrl-C): no bound here.
    const result = await client.tasks.result(taskId, { maxWaitMs: 0, onStatus: (t) => report(`task ${t.taskId}: ${t.status}`) });
    return result;
  } catch (error) {
    if (error instanceof McpError && error.message.startsWith(`Task ${taskId} failed: `)) {
      throw new CliError(`task ${taskId} failed: error ${error.code}: ${error.message.slice(`Task ${taskId} failed: `.length)}`, Exit.PROTOCOL);
    }
    throw error;
  }
}
