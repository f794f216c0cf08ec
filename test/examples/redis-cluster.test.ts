/**
 * examples/redis-cluster: two processes of the example on a private
 * redis-server act as one server, as a user would run them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listeningUrl } from '../support/process.js';
import { startRedis, type RedisServer } from '../support/redis.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'redis-cluster-example-secret-0123456789';
const VERSION = '2025-11-25';
const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let redis: RedisServer;
const children: ChildProcess[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => redis?.close());
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function instance(): Promise<string> {
  const child = spawn(process.execPath, ['examples/redis-cluster/server.js'], {
    cwd: root,
    env: { ...process.env, PORT: '0', REDIS_URL: redis.url, MCPKIT_STATE_SECRET: SECRET },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  return listeningUrl(child);
}

const post = (url: string, body: unknown, headers: Record<string, string>): Promise<Response> => fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, ...headers }, body: JSON.stringify(body) });

/** The JSON messages of an SSE response, one at a time. */
async function* messages(response: Response): AsyncGenerator<Record<string, unknown>> {
  let buffer = '';
  for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const data = buffer.slice(0, end).split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
      buffer = buffer.slice(end + 2);
      if (data !== '') yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}

describe('examples/redis-cluster', () => {
  it('serves a session opened on one instance from the other, shares app state, and routes an elicitation answer back', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    const init = await post(a, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } } }, {});
    expect(init.status).toBe(200);
    await init.text();
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': VERSION };
    expect((await post(b, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);

    const portOf = (url: string): string => new URL(url).port;
    const first = await (await post(a, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'visit', arguments: {} } }, session)).json();
    const second = await (await post(b, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'visit', arguments: {} } }, session)).json();
    expect(first).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: `visit 1, served by port-${portOf(a)}` }] } });
    expect(second).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: `visit 2, served by port-${portOf(b)}` }] } });

    // greet runs on A; the client's answer to its elicitation is POSTed to B and reaches A.
    const call = await post(a, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'greet', arguments: {} } }, session);
    const stream = messages(call);
    const asked = (await stream.next()).value!;
    expect(asked).toMatchObject({ jsonrpc: '2.0', method: 'elicitation/create', params: { message: 'What is your name?' } });
    expect(String(asked['id'])).toMatch(/@[A-Za-z0-9_-]+\.\d+$/);
    const answered = await post(b, { jsonrpc: '2.0', id: asked['id'], result: { action: 'accept', content: { name: 'Ada' } } }, session);
    expect(answered.status).toBe(202);
    expect((await stream.next()).value).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: `Hello, Ada, from port-${portOf(a)}` }] } });
  });
});
