/**
 * The dispatcher answers a handler that returns its result synchronously without awaiting it
 * (issue 16). Whatever a handler returns or throws, each request gets the answer it always got,
 * in both eras, and one failure fails that request only.
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import { client, connected } from '../support.js';

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

function make(): McpServer {
  const s = new McpServer({ name: 'sync', version: '1.0.0', logger: { error: () => undefined } });
  s.tool('now', {}, () => 'now');
  // Not a Promise, but awaitable: treated as one, as `await` does.
  s.tool('thenable', {}, () => ({ then: (resolve: (value: string) => void) => resolve('later') }) as unknown as string);
  s.tool('throws', {}, () => {
    throw new Error('boom');
  });
  s.tool('slow', {}, async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return 'slow';
  });
  s.tool('typed', { input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }, ({ n }) => String(n));
  return s;
}

describe('synchronous handlers', () => {
  it('legacy: synchronous, thenable, throwing, invalid and asynchronous calls each get their own answer', async () => {
    const c = await connected(make());
    const [slow, now, thenable, thrown, typed] = await Promise.all([
      c.callTool('slow'),
      c.callTool('now'),
      c.callTool('thenable'),
      c.callTool('throws'),
      c.callTool('typed', { n: 2 }),
    ]);
    expect([slow, now, thenable, typed]).toEqual([text('slow'), text('now'), text('later'), text('2')]);
    expect(thrown).toEqual({ ...text('boom'), isError: true });
    await expect(c.callTool('typed', { n: 'two' })).resolves.toMatchObject({ isError: true });
    await expect(c.callTool('ghost')).rejects.toMatchObject({ code: -32602 });
    expect(await c.callTool('now')).toEqual(text('now'));
  });

  it('2026-07-28: a synchronous answer is shaped like any other (resultType, serverInfo)', async () => {
    const c = client(make(), { modern: true });
    for (const name of ['now', 'slow', 'thenable']) {
      expect(await c.request('tools/call', { name })).toEqual({
        ...text(name === 'thenable' ? 'later' : name),
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'sync', version: '1.0.0' } },
      });
    }
  });

  it('middleware still runs around a synchronous handler and sees its result', async () => {
    const s = make();
    const seen: unknown[] = [];
    s.use('tools/call', async (_ctx, next) => {
      const result = await next();
      seen.push(result);
      return result;
    });
    const c = await connected(s);
    expect(await c.callTool('now')).toEqual(text('now'));
    expect(seen).toEqual([text('now')]);
  });
});
