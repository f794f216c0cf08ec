import { parse } from '../args.js';
import { str } from '../text.js';
import type { Json } from '../json.js';
import { coerceArguments } from '../coerce.js';
import { Exit, usage } from '../errors.js';
import { closePrompt, elicitInTerminal } from '../prompt.js';
import { ERA_HELP, OAUTH_HELP, OAUTH_OPTIONS, TARGET_OPTIONS, eraOf, headersOf, oauthOf, withClient } from '../session.js';
import { awaitTask, isTaskResult } from '../tasks.js';

export const help = `usage: mcpkit call <entry|url> <tool> [key=value…] [options]

Calls one tool and prints its result as JSON on stdout. <entry> is a server
file (it exports its server, or serves stdio itself); <url> a Streamable HTTP
endpoint such as http://127.0.0.1:3000/mcp.

Each key=value is coerced by the tool's input schema: days=3 is a number when
days is a number, a string when it is a string; booleans are true/false,
objects and arrays are JSON; a.b=1 sets a nested field.

  --json '{…}'     the arguments as one JSON object (instead of key=value)
  ${ERA_HELP}
  --header 'K: V'  an extra HTTP header (repeatable), e.g. 'Authorization: Bearer …'
  ${OAUTH_HELP}
  --verbose        show the entry's stderr

When the tool asks the user (elicitation), the questions appear on stderr and
the answers are read from stdin; !decline or !cancel refuses. Progress and
log messages go to stderr. On 2026-07-28 a tool the server runs as a task
(tasks extension), and on 2025-11-25 a tool listed with taskSupport "required",
is awaited: its status goes to stderr, its result to stdout.

exit codes: 0 result · 1 the result has isError: true · 2 usage (unknown
option, a value that does not fit the schema) · 3 JSON-RPC error (unknown
tool, invalid params, …), HTTP refusal (401, 403, 404) or failed task · 4 server
unreachable · 5 other failure`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('call', argv, { json: { type: 'string' }, ...TARGET_OPTIONS, ...OAUTH_OPTIONS });
  const [target, tool, ...pairs] = positionals;
  if (target === undefined || tool === undefined) throw usage('expected <entry|url> <tool> [key=value…] (run: mcpkit call --help)');
  let json: Json | undefined;
  if (values.json !== undefined) {
    if (pairs.length) throw usage('give the arguments either as key=value or with --json, not both');
    try {
      json = JSON.parse(values.json) as Json;
    } catch (error) {
      throw usage(`--json is not JSON: ${(error as Error).message}`);
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw usage('--json must be a JSON object');
  }
  const era = eraOf(values.era);
  const headers = headersOf(values.header);
  const signIn = oauthOf(values, target, headers);
  try {
    const result = await withClient(
      target,
      {
        era,
        headers,
        oauth: signIn,
        ...(values.verbose === undefined ? {} : { verbose: values.verbose }),
        handlers: { elicit: elicitInTerminal, notification: report },
      },
      async (client, connected) => {
        let schema: Json | undefined;
        const names: string[] = [];
        for await (const t of client.tools()) {
          names.push(t.name);
          if (t.name === tool) schema = t.inputSchema;
        }
        // Sent anyway (a server may serve a tool it does not list), but a typo should show the right name.
        if (!names.includes(tool)) console.error(`mcpkit call: the server lists no tool "${tool}"; it lists ${names.length === 0 ? 'none' : `${names.slice(0, 20).join(', ')}${names.length > 20 ? `, … (${names.length} in all)` : ''}`}`);
        const args = json ?? coerceArguments(pairs, schema);
        const meta = { progressToken: 'mcpkit-cli', ...(connected.era === 'modern' ? { 'io.modelcontextprotocol/logLevel': 'info' } : {}) };
        // 2025-11-25: a tool whose listing says taskSupport "required" can only run as a task.
        if (client.tasks.callsAsTask(tool, false)) {
          const started = await client.tasks.start(tool, args);
          return 'task' in started ? awaitTask(client, { taskId: started.task.taskId }, (line) => console.error(line)) : started.result;
        }
        // Not callTool(): the result is printed as the server sent it, a task handle included.
        const answer = await client.request('tools/call', { name: tool, arguments: args, _meta: meta });
        return isTaskResult(answer) ? awaitTask(client, answer, (line) => console.error(line)) : answer;
      },
    );
    console.log(JSON.stringify(result, null, 2));
    return result['isError'] === true ? Exit.TOOL_ERROR : Exit.OK;
  } finally {
    closePrompt();
  }
}

/** Progress and log notifications, for the person at the terminal. */
function report(method: string, params: Json): void {
  if (method === 'notifications/progress') {
    const total = params['total'] === undefined ? '' : `/${str(params['total'])}`;
    console.error(`progress ${str(params['progress'])}${total}${params['message'] ? ` ${str(params['message'])}` : ''}`);
  } else if (method === 'notifications/message') {
    const data = params['data'];
    console.error(`log ${str(params['level'])}${params['logger'] ? ` [${str(params['logger'])}]` : ''}: ${typeof data === 'string' ? data : JSON.stringify(data)}`);
  }
}
