// Several instances, one server: start two or more on one Redis, behind any balancer (no stickiness).
//   REDIS_URL=redis://127.0.0.1:6379 MCPKIT_STATE_SECRET=$(openssl rand -hex 32) PORT=3001 node examples/redis-cluster/server.js
//   REDIS_URL=redis://127.0.0.1:6379 MCPKIT_STATE_SECRET=<the same> PORT=3002 node examples/redis-cluster/server.js
// A session opened on one is served by the other; an elicitation asked on one is answered through the other.
import { createClient } from 'redis';
import { McpServer } from 'mcpkit';
import { listen } from 'mcpkit/http';
import { createRedisState } from 'mcpkit/redis';

const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
client.on('error', (error) => console.error(`redis: ${error.message}`));
await client.connect();

// Sessions, notifications, server→client answers and requestState keys are shared through Redis.
const state = await createRedisState({ client, stateKeys: [process.env.MCPKIT_STATE_SECRET ?? ''], prefix: 'example:' });
// Named by its port once listening; the tools below report which instance served them.
let instance = 'starting';
const server = new McpServer({ name: 'redis-cluster-example', version: '1.0.0', ...state.server });

// The application's own state goes to Redis too: any instance may serve the next call.
server.tool('visit', { description: 'Count a visit', input: { type: 'object', properties: {} } }, async () => {
  const visits = await client.incr('example:visits');
  return `visit ${visits}, served by ${instance}`;
});

server.tool('greet', { description: 'Ask the user for their name, then greet them', input: { type: 'object', properties: {} } }, async (_args, ctx) => {
  const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
  return answer.action === 'accept' ? `Hello, ${answer.content?.name}, from ${instance}` : 'No name given';
});

const listener = await listen(server, { port: Number(process.env.PORT ?? 3001), ...state.http });
instance = `port-${new URL(listener.url).port}`;
console.error(`${instance} (instance ${state.instanceId}) listening on ${listener.url}`);

process.once('SIGTERM', async () => {
  await listener.close();
  await state.close();
  await client.close();
});
