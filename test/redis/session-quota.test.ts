/**
 * Session quotas hold across instances: two engines on one Redis count one
 * client's sessions together (maxSessionsPerClient), wherever each was opened.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { createRedisState, type RedisState } from '../../src/redis.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { freshPrefix } from './support.js';

const VERSION = '2025-11-25';
const KEY = 'session-quota-test-key-0123456789abcdef';
let redis: RedisServer;
const instances: { listener: McpHttpListener; state: RedisState; client: { close(): Promise<void> } }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  const prefix = freshPrefix();
  for (const instanceId of ['qa', 'qb']) {
    const client = createClient({ url: redis.url });
    client.on('error', () => undefined);
    await client.connect();
    const state = await createRedisState({ client, instanceId, prefix, stateKeys: [KEY] });
    const server = new McpServer({ name: 'quota', version: '1.0.0', ...state.server });
    server.tool('ping_tool', { input: { type: 'object', properties: {} } }, () => 'pong');
    instances.push({ listener: await listen(server, { port: 0, limits: { maxSessionsPerClient: 2 }, ...state.http }), state, client });
  }
});

afterAll(async () => {
  for (const { listener, state, client } of instances) {
    await listener.close();
    await state.close();
    await client.close();
  }
  await redis?.close();
});

async function initialize(on: number): Promise<Response> {
  return fetch(instances[on]!.listener.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'q', version: '1' } } }),
  });
}

describe('createRedisState: a missing key', () => {
  it('says the key is missing and which environment variable the docs read it from, before it touches Redis', async () => {
    const client = createClient({ url: redis.url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const missing = (key: string | undefined) => createRedisState({ client, prefix: freshPrefix(), stateKeys: [KEY, key as string] });
      await expect(missing(undefined)).rejects.toThrow(
        'createRedisState: stateKeys[1] is missing (undefined): is its environment variable set? The docs read the key from MCPKIT_STATE_SECRET: give every instance the same secret of at least 32 bytes (e.g. openssl rand -base64 32).',
      );
      await expect(missing('')).rejects.toThrow('createRedisState: stateKeys[1] is missing (an empty string): is its environment variable set?');
    } finally {
      await client.close();
    }
  });
});

describe('maxSessionsPerClient across instances on Redis', () => {
  it('refuses a third session on either instance once the client holds two, and admits one again after a DELETE elsewhere', async () => {
    const first = await initialize(0);
    const second = await initialize(1);
    expect([first.status, second.status]).toEqual([200, 200]);
    const firstId = first.headers.get('mcp-session-id')!;
    await first.text();
    await second.text();

    for (const on of [0, 1]) {
      const refused = await initialize(on);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32600,
          message:
            'Too many sessions: this client holds its maximum of 2 sessions (maxSessionsPerClient); end unused sessions with DELETE, or retry after one expires',
        },
      });
    }

    // Ended on the other instance than the one that opened it: the quota is shared, so is the release.
    const ended = await fetch(instances[1]!.listener.url, { method: 'DELETE', headers: { 'mcp-session-id': firstId, 'mcp-protocol-version': VERSION } });
    expect(ended.status).toBe(204);
    const again = await initialize(0);
    expect(again.status).toBe(200);
    await again.text();
  });
});
