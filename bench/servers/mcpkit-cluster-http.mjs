// The mcpkit HTTP bench server as one instance of a cluster: with --redis <url> it shares its
// state through mcpkit/redis (createRedisState, as docs/scaling.md shows), without it it keeps
// the default memory stores. Used by bench/cluster.bench.mjs only.
import http from 'node:http';
import { createNodeHandler } from '../../dist/http.js'; // mcpkit/http
import { arg, host, port } from './_common.mjs';
import { createServer } from './mcpkit-server.mjs';

const redisUrl = arg('redis', '');
let state;
if (redisUrl !== '') {
  const { createClient } = await import('redis');
  const { createRedisState } = await import('../../dist/redis.js'); // mcpkit/redis
  const client = createClient({ url: redisUrl });
  client.on('error', () => undefined);
  await client.connect();
  state = await createRedisState({ client, instanceId: arg('instance', 'a'), stateKeys: ['bench-cluster-shared-key-0123456789abcdef'] });
}

const server = createServer(state?.server);
http.createServer(createNodeHandler(server, { limits: { maxSessionsPerClient: 2_000 }, ...(state?.http ?? {}) })).listen(port, host);
