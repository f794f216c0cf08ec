/**
 * Tasks are bound to the principal that created them (SEP-2663: receivers MUST
 * bind tasks to the authorization context): another user's tasks/get,
 * tasks/update and tasks/cancel get exactly the answer an unknown task gets,
 * and change nothing. Real HTTP server, bearer-token authentication.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { listen, type McpHttpListener } from '../../src/http.js';
import { bearer, modernCall, modernResult, type Json } from './tasks-support.js';

const none = { type: 'object', properties: {} } as const;
let listener: McpHttpListener;
let url: string;

beforeAll(async () => {
  const server = new McpServer({ name: 'tasks-binding', version: '1.0.0' });
  server.tool('hang', { input: none, task: 'optional' }, (_args, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))));
  server.tool('ask', { input: none, task: 'optional' }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { key: 'name' });
    return `hello ${String(answer.content?.['name'])}`;
  });
  listener = await listen(server, { port: 0, host: '127.0.0.1', keepAliveMs: 0, authenticate: bearer });
  url = listener.url;
});
afterAll(() => listener.close());

/** What any tasks/* method answers for an id that never existed. */
async function unknownTaskAnswer(method: string, user: string | undefined, params: Json = {}): Promise<{ status: number; message: Json }> {
  const taskId = '00000000-0000-4000-8000-000000000000';
  return modernCall(url, method, { taskId, ...params }, { user });
}

function withId(answer: { status: number; message: Json }, from: string, to: string): unknown {
  return JSON.parse(JSON.stringify(answer).replaceAll(from, to));
}

describe('tasks are bound to their principal', () => {
  it.each([
    ['another user', 'bob'],
    ['an anonymous caller', undefined],
  ])('%s cannot read, answer or cancel a task: it looks exactly like an unknown task', async (_label, intruder) => {
    const created = await modernResult(url, 'tools/call', { name: 'ask', arguments: {} }, { user: 'alice' });
    const taskId = String(created['taskId']);
    const unknownId = '00000000-0000-4000-8000-000000000000';
    await expect.poll(async () => (await modernResult(url, 'tasks/get', { taskId }, { user: 'alice' }))['status']).toBe('input_required');

    for (const [method, params] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: { name: { action: 'accept', content: { name: 'mallory' } } } }],
      ['tasks/cancel', {}],
    ] as const) {
      const foreign = await modernCall(url, method, { taskId, ...params }, { user: intruder });
      const unknown = await unknownTaskAnswer(method, intruder, params);
      expect(foreign.status).toBe(unknown.status);
      expect(foreign.message['error']).toEqual({ code: -32602, message: `Invalid params: unknown task "${taskId}" (it never existed, or it expired)` });
      expect(withId(foreign, taskId, unknownId)).toEqual({ ...unknown, message: { ...unknown.message, id: foreign.message['id'] } });
    }

    // The owner still sees its task untouched: waiting, not answered, not cancelled.
    const task = await modernResult(url, 'tasks/get', { taskId }, { user: 'alice' });
    expect(task['status']).toBe('input_required');
    await modernResult(url, 'tasks/update', { taskId, inputResponses: { name: { action: 'accept', content: { name: 'Alice' } } } }, { user: 'alice' });
    await expect.poll(async () => (await modernResult(url, 'tasks/get', { taskId }, { user: 'alice' }))['result']).toEqual({ content: [{ type: 'text', text: 'hello Alice' }], resultType: 'complete' });
  });

  it('an anonymous task is not reachable by an authenticated user, and the owner can cancel it', async () => {
    const created = await modernResult(url, 'tools/call', { name: 'hang', arguments: {} });
    const taskId = String(created['taskId']);
    const foreign = await modernCall(url, 'tasks/cancel', { taskId }, { user: 'alice' });
    expect(foreign.message['error']).toEqual({ code: -32602, message: `Invalid params: unknown task "${taskId}" (it never existed, or it expired)` });
    expect((await modernResult(url, 'tasks/get', { taskId }))['status']).toBe('working');
    await modernResult(url, 'tasks/cancel', { taskId });
    expect((await modernResult(url, 'tasks/get', { taskId }))['status']).toBe('cancelled');
  });
});
