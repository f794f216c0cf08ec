import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import type { TestClientError } from '../../../src/testing/index.js';
import { client, connected, lastResponse, tick } from '../support.js';

function make(): McpServer {
  const s = new McpServer({ name: 'res', version: '1.0.0', logger: { error: () => undefined } });
  s.resource('file:///readme.md', { name: 'readme', title: 'Read me', mimeType: 'text/markdown', size: 7 }, () => '# Hello');
  s.resource('file:///logo.png', { name: 'logo', mimeType: 'image/png' }, () => new Uint8Array([137, 80, 78, 71]));
  s.resourceTemplate('users://{id}/profile{?fields*}', { name: 'profile', mimeType: 'application/json' }, (_uri, vars) =>
    JSON.stringify({ id: vars['id'], fields: vars['fields'] ?? [] }),
  );
  return s;
}

describe('static resources', () => {
  it('lists them in registration order with their metadata', async () => {
    const c = await connected(make());
    expect(await c.listResources()).toEqual({
      resources: [
        { uri: 'file:///readme.md', name: 'readme', title: 'Read me', mimeType: 'text/markdown', size: 7 },
        { uri: 'file:///logo.png', name: 'logo', mimeType: 'image/png' },
      ],
    });
  });

  it('reads text and blob contents', async () => {
    const c = await connected(make());
    expect(await c.readResource('file:///readme.md')).toEqual({ contents: [{ uri: 'file:///readme.md', mimeType: 'text/markdown', text: '# Hello' }] });
    expect(await c.readResource('file:///logo.png')).toEqual({ contents: [{ uri: 'file:///logo.png', mimeType: 'image/png', blob: 'iVBORw==' }] });
  });

  it('an unknown URI is -32002 on legacy revisions and -32602 on 2026-07-28', async () => {
    const c = await connected(make());
    await c.readResource('file:///missing').catch(() => undefined);
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32002, message: 'Resource not found: file:///missing', data: { uri: 'file:///missing' } } });
    const m = client(make(), { modern: true });
    const error = await m.readResource('file:///missing').catch((e: unknown) => e);
    expect((error as TestClientError).code).toBe(-32602);
  });
});

describe('resource templates', () => {
  it('lists templates and reads URIs matched against RFC 6570 templates', async () => {
    const c = await connected(make());
    expect(await c.listResourceTemplates()).toEqual({
      resourceTemplates: [{ uriTemplate: 'users://{id}/profile{?fields*}', name: 'profile', mimeType: 'application/json' }],
    });
    expect(await c.readResource('users://42/profile')).toEqual({
      contents: [{ uri: 'users://42/profile', mimeType: 'application/json', text: '{"id":"42","fields":[]}' }],
    });
    expect(await c.readResource('users://7/profile?fields=name&fields=email')).toEqual({
      contents: [{ uri: 'users://7/profile?fields=name&fields=email', mimeType: 'application/json', text: '{"id":"7","fields":["name","email"]}' }],
    });
  });
});

describe('subscriptions', () => {
  it('sends notifications/resources/updated only for subscribed URIs, until unsubscribed', async () => {
    const s = make();
    const c = await connected(s);
    const other = await connected(s);
    expect(await c.subscribe('file:///readme.md')).toEqual({});
    await s.notifyResourceUpdated('file:///readme.md');
    await s.notifyResourceUpdated('file:///logo.png');
    await tick();
    expect(c.notifications('notifications/resources/updated')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///readme.md' } },
    ]);
    expect(other.notifications('notifications/resources/updated')).toEqual([]);
    expect(await c.unsubscribe('file:///readme.md')).toEqual({});
    await s.notifyResourceUpdated('file:///readme.md');
    await tick();
    expect(c.notifications('notifications/resources/updated')).toHaveLength(1);
  });

  it('registering a resource sends notifications/resources/list_changed', async () => {
    const s = make();
    const c = await connected(s);
    const h = s.resource('file:///new.txt', {}, () => 'new');
    await tick();
    expect(c.notifications('notifications/resources/list_changed')).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/list_changed' }]);
    expect((await c.listResources())['resources']).toContainEqual({ uri: 'file:///new.txt', name: 'file:///new.txt' });
    h.remove();
    await tick();
    expect(c.notifications('notifications/resources/list_changed')).toHaveLength(2);
    await expect(c.readResource('file:///new.txt')).rejects.toThrow(/Resource not found/);
  });
});
