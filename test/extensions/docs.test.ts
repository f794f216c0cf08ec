import { describe, expect, it } from 'vitest';
import type { McpServer } from '../../src/server/server.js';
import { client } from '../protocol/support.js';
import { runSnippet } from '../apps/snippets.js';

// docs/extensions.md's snippet, run as written against the build.
describe('docs/extensions.md', () => {
  it('declares the extension, requires it on one tool and falls back on the other', async () => {
    const { server } = (await runSnippet('extensions.md', 0)) as { server: McpServer };
    const declared = { extensions: { 'com.example/weather-alerts': {} } };
    const meta = (capabilities: object) => ({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities });
    const c = client(server, { modern: true });
    const discover = await c.request('server/discover', { _meta: meta({}) });
    expect((discover['capabilities'] as { extensions: unknown }).extensions).toEqual({ 'com.example/weather-alerts': { regions: ['eu'] } });
    await expect(c.request('tools/call', { name: 'alerts', arguments: {}, _meta: meta({}) })).rejects.toMatchObject({ code: -32021 });
    expect((await c.request('tools/call', { name: 'alerts', arguments: {}, _meta: meta(declared) }))['content']).toEqual([{ type: 'text', text: 'No alerts' }]);
    expect((await c.request('tools/call', { name: 'forecast', arguments: {}, _meta: meta({}) }))['content']).toEqual([{ type: 'text', text: 'Sunny' }]);
    expect((await c.request('tools/call', { name: 'forecast', arguments: {}, _meta: meta(declared) }))['content']).toEqual([{ type: 'text', text: 'Sunny (no alerts)' }]);
  });
});
