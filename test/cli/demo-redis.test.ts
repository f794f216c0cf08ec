/**
 * `REDIS_URL=… MCPKIT_STATE_SECRET=… npm start`: two demo instances on one
 * Redis act as one server (a session opened on A is served by B, and a
 * resource update published on B reaches A's subscriber).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../support/redis.js';
import { killAll, mcpkit, startMcpkit } from './support.js';

const SECRET = 'demo-redis-test-secret-0123456789abcdef';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LEGACY = { ...HEADERS, 'mcp-protocol-version': '2025-11-25' };

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => redis.close());
afterEach(killAll);

async function demo(): Promise<string> {
  const running = startMcpkit(['demo', '--port', '0'], { env: { REDIS_URL: redis.url, MCPKIT_STATE_SECRET: SECRET } });
  const [, url] = await running.waitForStderr(/on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  await running.waitForStderr(/Redis: .* shared as instance/);
  return url!;
}

function post(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

describe('mcpkit demo on Redis', () => {
  it('a session opened on one instance is served by another, and test_trigger_resource_update reaches the subscriber', async () => {
    const [a, b] = await Promise.all([demo(), demo()]);
    const init = await post(a, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, HEADERS);
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { ...LEGACY, 'mcp-session-id': session };
    expect((await post(b, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    const subscribed = await post(a, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'test://watched-resource' } }, headers);
    expect(await subscribed.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });

    // The GET stream on A; the update is published on B.
    const stream = await fetch(a, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': session } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const called = await post(b, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'test_trigger_resource_update', arguments: { uri: 'test://watched-resource' } } }, headers);
    expect(await called.json()).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'Published notifications/resources/updated for test://watched-resource' }] } });
    let text = '';
    while (!text.includes('notifications/resources/updated')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(text).toContain('{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://watched-resource"}}');
    await reader.cancel();
  });

  it('refuses to start without a shared secret of at least 32 bytes, saying what to set', async () => {
    const result = await mcpkit(['demo', '--port', '0'], { env: { REDIS_URL: redis.url, MCPKIT_STATE_SECRET: 'short' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('REDIS_URL needs MCPKIT_STATE_SECRET: the requestState key every instance shares, at least 32 bytes');
  });
});
