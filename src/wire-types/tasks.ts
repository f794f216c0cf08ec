/** A task's status in the 2026-07-28 tasks extension (SEP-2663): what the server stores and the client reads. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
