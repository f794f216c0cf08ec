/** The demo on Redis: REDIS_URL shares its state, so several demo instances act as one server (docs/scaling.md). */
import type { RedisState } from '../redis.js';
import { CliError, Exit, usage } from './errors.js';

interface RedisModule {
  createClient(options: { url: string }): { on(event: 'error', listener: (error: unknown) => void): unknown; connect(): Promise<unknown> };
}

/** Connects to `url` and builds the shared state; the secret is the requestState key every instance shares. */
export async function demoRedisState(url: string, secret: string | undefined): Promise<RedisState> {
  if (secret === undefined || Buffer.byteLength(secret) < 32) {
    throw usage('REDIS_URL needs MCPKIT_STATE_SECRET: the requestState key every instance shares, at least 32 bytes (e.g. MCPKIT_STATE_SECRET=$(openssl rand -hex 32))');
  }
  let redis: RedisModule;
  try {
    redis = await import('redis');
  } catch {
    throw new CliError('REDIS_URL needs the node-redis client: npm install redis', Exit.FAILURE);
  }
  const client = redis.createClient({ url });
  // Reconnection is node-redis's; a lost connection must not kill the demo.
  client.on('error', (error) => console.error('mcpkit demo: redis:', error instanceof Error ? error.message : error));
  try {
    await client.connect();
  } catch (error) {
    throw new CliError(`cannot reach Redis at ${url}: ${error instanceof Error ? error.message : String(error)}`, Exit.UNREACHABLE);
  }
  const { createRedisState } = await import('../redis.js');
  return createRedisState({ client: client as never, stateKeys: [secret] });
}
