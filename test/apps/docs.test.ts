import { describe, expect, it } from 'vitest';
import type { McpServer } from '../../src/server/server.js';
import { client } from '../protocol/support.js';
import { runSnippet, snippetsOf } from './snippets.js';

// docs/apps.md's snippets, run as written against the build.
describe('docs/apps.md', () => {
  it('the first snippet serves the wire the page shows', async () => {
    const { server } = (await runSnippet('apps.md', 0)) as { server: McpServer };
    const c = client(server);
    await c.initialize({ protocolVersion: '2025-11-25' });
    const { tools } = await c.listTools();
    expect(tools.map((t) => [t['name'], t['_meta']])).toEqual([
      ['forecast', { ui: { resourceUri: 'ui://weather/forecast' } }],
      ['forecast_refresh', { ui: { resourceUri: 'ui://weather/forecast', visibility: ['app'] } }],
    ]);
    const [content] = (await c.readResource('ui://weather/forecast')).contents;
    expect(content).toMatchObject({
      uri: 'ui://weather/forecast',
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { csp: { connectDomains: ['https://api.weather.example'] }, permissions: { geolocation: {} }, prefersBorder: true } },
    });
    expect(await c.callTool('forecast', { city: 'Oslo' })).toEqual({ content: [{ type: 'text', text: 'Sunny in Oslo' }] });
  });

  it('every other snippet runs', async () => {
    for (let i = 1; i < snippetsOf('apps.md').length; i++) await runSnippet('apps.md', i);
  });
});
