import { describe, expect, it } from 'vitest';
import { LOGGING_LEVELS } from '../../../src/wire-types/index.js';
import { McpServer } from '../../../src/server/server.js';
import { client, connected, lastResponse } from '../support.js';

function make(): McpServer {
  const s = new McpServer({ name: 'logging', version: '1.0.0' });
  s.tool('chatty', {}, async (_args, ctx) => {
    for (const level of LOGGING_LEVELS) await ctx.log(level, { said: level }, 'chatty');
    return 'done';
  });
  return s;
}

const levelsSent = (c: { notifications(m: string): { params?: Record<string, unknown> }[] }): unknown[] =>
  c.notifications('notifications/message').map((n) => n.params?.['level']);

describe('logging', () => {
  it('sends every level before any logging/setLevel, with data and logger', async () => {
    const c = await connected(make());
    await c.callTool('chatty');
    expect(levelsSent(c)).toEqual([...LOGGING_LEVELS]);
    expect(c.notifications('notifications/message')[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'debug', data: { said: 'debug' }, logger: 'chatty' },
    });
  });

  it('filters by the session level in RFC 5424 order', async () => {
    const c = await connected(make());
    expect(await c.setLevel('warning')).toEqual({});
    await c.callTool('chatty');
    expect(levelsSent(c)).toEqual(['warning', 'error', 'critical', 'alert', 'emergency']);
    await c.setLevel('emergency');
    await c.callTool('chatty');
    expect(levelsSent(c)).toEqual(['warning', 'error', 'critical', 'alert', 'emergency', 'emergency']);
  });

  it('the level is per session', async () => {
    const s = make();
    const quiet = await connected(s);
    const loud = await connected(s);
    await quiet.setLevel('error');
    await quiet.callTool('chatty');
    await loud.callTool('chatty');
    expect(levelsSent(quiet)).toEqual(['error', 'critical', 'alert', 'emergency']);
    expect(levelsSent(loud)).toHaveLength(8);
  });

  it('an unknown level is -32602', async () => {
    const c = await connected(make());
    await c.request('logging/setLevel', { level: 'verbose' }).catch(() => undefined);
    expect(lastResponse(c)).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it('on 2026-07-28 the level travels in each request and nothing is sent without one', async () => {
    const silent = client(make(), { modern: true });
    await silent.callTool('chatty');
    expect(levelsSent(silent)).toEqual([]);
    const c = client(make(), { modern: true, logLevel: 'alert' });
    await c.callTool('chatty');
    expect(levelsSent(c)).toEqual(['alert', 'emergency']);
  });
});
