// Tools for the 2026-07-28 tasks extension (SEP-2663, docs/tasks.md). A tool
// that declares `task` answers a client that declared the extension with a
// task handle and runs on in the background; everywhere else it runs as usual.
import { JsonRpcProtocolError, ToolError } from 'mcpkit';

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  });

const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const confirmSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

export function registerTaskTools(server) {
  server.tool('greet', { description: 'Greets by name (never a task)', input: nameSchema }, ({ name }) => `Hello, ${name}!`);

  server.tool(
    'slow_compute',
    {
      description: 'Sleeps for `seconds`, then answers; runs as a task when the client allows it',
      input: { type: 'object', properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } } },
      task: 'optional',
    },
    async ({ seconds = 0, label = 'job' }, ctx) => {
      if (seconds > 0) await sleep(seconds * 1000, ctx.signal);
      return `Computed ${label} after ${seconds} second(s)`;
    },
  );

  server.tool('failing_job', { description: 'Always a task; ends with a tool error', input: { type: 'object', properties: {} }, task: 'required' }, async (_args, ctx) => {
    await sleep(1000, ctx.signal);
    throw new ToolError('The job failed: the input data was rejected');
  });

  server.tool('protocol_error_job', { description: 'Ends with a JSON-RPC error (a failed task)', input: { type: 'object', properties: {} }, task: 'optional' }, async (_args, ctx) => {
    await sleep(100, ctx.signal);
    throw new JsonRpcProtocolError(-32603, 'The job failed: its worker stopped responding');
  });

  server.tool(
    'confirm_delete',
    { description: 'Asks for confirmation, then deletes (pretend)', input: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] }, task: 'optional' },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit({ message: `Delete ${filename}?`, requestedSchema: confirmSchema }, { key: 'confirm' });
      return answer.action === 'accept' && answer.content?.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  );

  server.tool('multi_input', { description: 'Asks two questions at once', input: { type: 'object', properties: {} }, task: 'optional' }, async (_args, ctx) => {
    const [name, confirm] = await Promise.all([
      ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { key: 'name' }),
      ctx.elicit({ message: 'Proceed?', requestedSchema: confirmSchema }, { key: 'confirm' }),
    ]);
    return `Got ${JSON.stringify(name.content ?? {})} and ${JSON.stringify(confirm.content ?? {})}`;
  });

  // Asks inside the tools/call request first (input_required, no task yet); the task starts once it has the name.
  server.tool('test_tool_with_task', { description: 'Asks for a name, then works as a task', input: { type: 'object', properties: {} }, task: 'required', taskStart: 'manual' }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { key: 'user_name' });
    await ctx.startTask();
    await sleep(100, ctx.signal);
    return `Hello, ${answer.content?.name ?? 'stranger'}! Your task is done.`;
  });
}
