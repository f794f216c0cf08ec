// One mcpkit instance of the test cluster, run from dist/ as its own process
// (so kill -9 is real). STATE=redis shares state through REDIS_URL with
// createRedisState; STATE=memory is the negative control (default stores).
// Prints "READY <port>" once it listens.
import { McpServer } from '../../../dist/index.js';
import { listen } from '../../../dist/http.js';

const instance = process.env.INSTANCE_ID ?? 'x';
const mode = process.env.STATE ?? 'redis';
const stats = { cancelled: 0, tasks: [] };

let state;
let client;
if (mode === 'redis') {
  const { createClient } = await import('redis');
  const { createRedisState } = await import('../../../dist/redis.js');
  client = createClient({ url: process.env.REDIS_URL, socket: { reconnectStrategy: () => 100, connectTimeout: 1_000 } });
  client.on('error', () => undefined);
  await client.connect();
  state = await createRedisState({
    client,
    instanceId: instance,
    stateKeys: [process.env.STATE_KEY ?? 'cluster-test-key-cluster-test-key-0123456789'],
    commandTimeoutMs: 1_000,
    retryAfterSeconds: 2,
    ...(process.env.SESSION_IDLE_MS ? { sessionIdleTimeoutMs: Number(process.env.SESSION_IDLE_MS) } : {}),
    ...(process.env.TASK_LEASE_MS ? { tasks: { leaseMs: Number(process.env.TASK_LEASE_MS) } } : {}),
    ...(process.env.INSTANCE_TTL_MS ? { instanceTtlMs: Number(process.env.INSTANCE_TTL_MS) } : {}),
  });
}

const server = new McpServer({
  name: 'cluster-test',
  version: '1.0.0',
  capabilities: { logging: {}, resources: { subscribe: true, listChanged: true } },
  ...(state?.server ?? {}),
});

server.tool('whoami', { input: { type: 'object', properties: {} } }, () => instance);

// Logs at two levels: a session's logging/setLevel decides which reach the client.
server.tool('log_probe', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
  await ctx.log('info', `info from ${instance}`);
  await ctx.log('error', `error from ${instance}`);
  return `logged on ${instance}`;
});

server.tool('ask_name', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
  const answer = await ctx.elicit(
    { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    { key: 'name' },
  );
  return `Hello, ${String(answer.content?.['name'])}, from ${instance}`;
});

// Runs until cancelled; counts the cancellations it saw.
server.tool('wait_forever', { input: { type: 'object', properties: {} } }, async (_args, ctx) => {
  await ctx.progress?.(0, 1, `running on ${instance}`);
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
  stats.cancelled++;
  return 'never sent';
});

// A task (2026-07-28 tasks extension) that asks for a colour, then runs until cancelled; `stats.tasks` says what reached it here.
server.tool('task_colour', { input: { type: 'object', properties: {} }, task: 'required' }, async (_args, ctx) => {
  const answer = await ctx.elicit({ message: 'Which colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] } }, { key: 'colour' });
  stats.tasks.push(`answer ${String(answer.content?.['colour'])}`);
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
  stats.tasks.push(`aborted: ${ctx.signal.reason?.message}`);
  return 'never kept';
});

// Reports `before` progress steps, waits until open_gate opens its gate (on this instance), then reports `after` more and answers.
const gates = new Map();
const gate = (name) => {
  if (!gates.has(name)) {
    let open;
    gates.set(name, { opened: new Promise((resolve) => (open = resolve)), open: () => open() });
  }
  return gates.get(name);
};
const gateInput = { type: 'object', properties: { gate: { type: 'string' }, before: { type: 'number' }, after: { type: 'number' } }, required: ['gate'] };
server.tool('progress_gate', { input: gateInput }, async ({ gate: name, before = 2, after = 2 }, ctx) => {
  const total = Number(before) + Number(after);
  for (let step = 1; step <= Number(before); step++) await ctx.progress?.(step, total, `step ${step} on ${instance}`);
  await gate(String(name)).opened;
  for (let step = Number(before) + 1; step <= total; step++) await ctx.progress?.(step, total, `step ${step} on ${instance}`);
  return `${total} steps done on ${instance}`;
});
server.tool('open_gate', { input: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] } }, ({ gate: name }) => {
  gate(String(name)).open();
  return `opened ${String(name)} on ${instance}`;
});

server.tool('stats', { input: { type: 'object', properties: {} } }, () => JSON.stringify({ instance, ...stats }));

server.tool('trigger_update', { input: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] } }, async ({ uri }) => {
  await server.notifyResourceUpdated(String(uri));
  return `updated ${String(uri)} from ${instance}`;
});

server.tool('add_tool', { input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, ({ name }) => {
  server.tool(String(name), { input: { type: 'object', properties: {} } }, () => 'added');
  return `added ${String(name)} on ${instance}`;
});

server.resource('test://watched', { name: 'watched', mimeType: 'text/plain' }, () => `watched on ${instance}`);

const listener = await listen(server, {
  port: Number(process.env.PORT ?? 0),
  keepAliveMs: 0,
  ...(process.env.SESSION_IDLE_MS && mode !== 'redis' ? { sessions: { idleTimeoutMs: Number(process.env.SESSION_IDLE_MS) } } : {}),
  ...(state?.http ?? {}),
});
process.stdout.write(`READY ${new URL(listener.url).port}\n`);

const stop = async () => {
  await listener.close();
  await state?.close();
  await client?.close().catch(() => undefined);
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
