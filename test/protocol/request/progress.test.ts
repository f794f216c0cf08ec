import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import { client, connected, tick } from '../support.js';

function make(): { server: McpServer; errors: string[] } {
  const server = new McpServer({ name: 'progress', version: '1.0.0' });
  const errors: string[] = [];
  server.tool('work', {}, async (_args, ctx) => {
    await ctx.progress(1, 3, 'starting');
    await ctx.progress(2, 3);
    await ctx.progress(3);
    return 'done';
  });
  server.tool('backwards', {}, async (_args, ctx) => {
    await ctx.progress(5);
    try {
      await ctx.progress(5);
    } catch (error) {
      errors.push((error as Error).message);
    }
    return 'done';
  });
  return { server, errors };
}

describe('progress', () => {
  it('sends notifications/progress with the request token, before the response', async () => {
    const { server } = make();
    const c = await connected(server);
    expect(await c.callTool('work', {}, { progressToken: 'tok-1' })).toEqual({ content: [{ type: 'text', text: 'done' }] });
    const tail = c.messages.slice(-4);
    expect(tail).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-1', progress: 1, total: 3, message: 'starting' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-1', progress: 2, total: 3 } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-1', progress: 3 } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } },
    ]);
  });

  it('numeric tokens are echoed as numbers', async () => {
    const { server } = make();
    const c = await connected(server);
    await c.callTool('work', {}, { progressToken: 7 });
    expect(c.notifications('notifications/progress').map((n) => n.params?.['progressToken'])).toEqual([7, 7, 7]);
  });

  it('sends nothing without a token', async () => {
    const { server } = make();
    const c = await connected(server);
    await c.callTool('work');
    expect(c.notifications('notifications/progress')).toEqual([]);
  });

  it('refuses a value that does not increase', async () => {
    const { server, errors } = make();
    const c = await connected(server);
    await c.callTool('backwards', {}, { progressToken: 'b' });
    expect(c.notifications('notifications/progress')).toHaveLength(1);
    expect(errors).toEqual(['Progress must increase with every notification: got 5 after 5']);
  });
});

describe('progress after completion', () => {
  it('is not sent once the request has been answered (the token is no longer active)', async () => {
    const server = new McpServer({ name: 'progress', version: '1.0.0' });
    const late: Promise<void>[] = [];
    server.tool('detached', {}, async (_args, ctx) => {
      await ctx.progress(1);
      // Work the handler left running after it returned.
      late.push(new Promise<void>((resolve) => setImmediate(() => void ctx.progress(2).then(resolve))));
      return 'done';
    });
    const c = await connected(server);
    await c.callTool('detached', {}, { progressToken: 'd' });
    await Promise.all(late);
    await tick();
    expect(c.notifications('notifications/progress').map((n) => n.params?.['progress'])).toEqual([1]);
  });
});

describe('progress on the 2026-07-28 path', () => {
  it('uses the token from the request _meta the same way', async () => {
    const { server } = make();
    const c = client(server, { modern: true });
    await c.callTool('work', {}, { progressToken: 'm-1' });
    expect(c.notifications('notifications/progress').map((n) => n.params)).toEqual([
      { progressToken: 'm-1', progress: 1, total: 3, message: 'starting' },
      { progressToken: 'm-1', progress: 2, total: 3 },
      { progressToken: 'm-1', progress: 3 },
    ]);
  });
});
