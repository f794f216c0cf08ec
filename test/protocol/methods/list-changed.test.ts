import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import { client, connected, tick } from '../support.js';

function make(): McpServer {
  const s = new McpServer({ name: 'changes', version: '1.0.0' });
  s.tool('base', {}, () => 'ok');
  s.prompt('base', {}, () => 'ok');
  s.resource('mem://base', {}, () => 'ok');
  return s;
}

describe('list_changed', () => {
  it('several changes in one tick send one notification per list', async () => {
    const s = make();
    const c = await connected(s);
    const a = s.tool('a', {}, () => 'a');
    s.tool('b', {}, () => 'b');
    a.update({ description: 'changed' });
    a.disable();
    s.prompt('p', {}, () => 'p');
    s.resourceTemplate('mem://{x}', {}, () => 'x');
    s.resource('mem://r', {}, () => 'r');
    await tick();
    const changes = c.notifications().map((n) => n.method).filter((m) => m.endsWith('list_changed'));
    expect(changes.sort()).toEqual(['notifications/prompts/list_changed', 'notifications/resources/list_changed', 'notifications/tools/list_changed']);
    expect(c.notifications('notifications/tools/list_changed')).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
  });

  it('changes in separate ticks send separate notifications, to every initialized session', async () => {
    const s = make();
    const c1 = await connected(s);
    const c2 = await connected(s);
    const h = s.tool('x', {}, () => 'x');
    await tick();
    h.remove();
    await tick();
    expect(c1.notifications('notifications/tools/list_changed')).toHaveLength(2);
    expect(c2.notifications('notifications/tools/list_changed')).toHaveLength(2);
  });

  it('a connection that has not initialized hears nothing', async () => {
    const s = make();
    const c = client(s);
    const ready = await connected(s);
    s.tool('x', {}, () => 'x');
    await tick();
    expect(c.messages).toEqual([]);
    expect(ready.notifications('notifications/tools/list_changed')).toHaveLength(1);
  });
});

describe('list_changed and the capabilities a session was told about', () => {
  it('a session that initialized before any prompt existed hears nothing about prompts, later sessions do', async () => {
    const server = new McpServer({ name: 'late-prompts', version: '1.0.0' });
    server.tool('t', {}, () => 't');
    const early = await connected(server);
    server.prompt('p', {}, () => 'p');
    const late = await connected(server);
    server.prompt('q', {}, () => 'q');
    server.tool('u', {}, () => 'u');
    await tick();
    expect(early.notifications('notifications/prompts/list_changed')).toEqual([]);
    expect(early.notifications('notifications/tools/list_changed')).toHaveLength(1);
    expect(late.notifications('notifications/prompts/list_changed')).toHaveLength(1);
    early.close();
    late.close();
  });
});
