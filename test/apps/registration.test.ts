import { describe, expect, it } from 'vitest';
import { RegistrationError } from '../../src/registries/checks.js';
import { McpServer } from '../../src/server/server.js';
import { connected } from '../protocol/support.js';

// MCP Apps registration: what tools and ui:// resources carry in _meta.ui (exact wire,
// schema-validated by the client helper), and the declarations refused up front.
const server = (): McpServer => new McpServer({ name: 'apps', version: '1.0.0', logger: { error: () => undefined } });
const HTML = '<!doctype html><html><body>view</body></html>';

describe('MCP Apps: tools and UI resources', () => {
  it('writes the tool app to _meta.ui and serves the view as text/html;profile=mcp-app with its _meta.ui', async () => {
    const s = server();
    s.uiResource('ui://apps/chart', HTML, {
      name: 'Chart',
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] },
      permissions: { clipboardWrite: {} },
      prefersBorder: false,
    });
    s.tool('chart', { description: 'Draws a chart', app: { resourceUri: 'ui://apps/chart' }, _meta: { 'com.example/x': 1 } }, () => 'a chart');
    s.tool('chart_refresh', { description: 'Refreshes the chart', app: { resourceUri: 'ui://apps/chart', visibility: ['app'] } }, () => 'refreshed');
    const c = await connected(s);
    const { tools } = await c.listTools();
    expect(tools.map((t) => [t['name'], t['_meta']])).toEqual([
      ['chart', { 'com.example/x': 1, ui: { resourceUri: 'ui://apps/chart' } }],
      ['chart_refresh', { ui: { resourceUri: 'ui://apps/chart', visibility: ['app'] } }],
    ]);
    const ui = {
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] },
      permissions: { clipboardWrite: {} },
      prefersBorder: false,
    };
    expect((await c.listResources()).resources).toEqual([{ uri: 'ui://apps/chart', name: 'Chart', mimeType: 'text/html;profile=mcp-app', _meta: { ui } }]);
    expect(await c.readResource('ui://apps/chart')).toEqual({ contents: [{ uri: 'ui://apps/chart', mimeType: 'text/html;profile=mcp-app', text: HTML, _meta: { ui } }] });
    // The tool itself still answers with text for hosts without MCP Apps.
    expect(await c.callTool('chart', {})).toEqual({ content: [{ type: 'text', text: 'a chart' }] });
  });

  it('app.html registers the view in the same call, and update() replaces it', async () => {
    const s = server();
    const tool = s.tool('clock', { description: 'Shows the time', app: { resourceUri: 'ui://apps/clock', html: () => HTML, csp: { connectDomains: ['wss://time.example.com'] } } }, () => 'now');
    const c = await connected(s);
    expect((await c.listResources()).resources).toEqual([
      { uri: 'ui://apps/clock', name: 'clock view', mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: { connectDomains: ['wss://time.example.com'] } } } },
    ]);
    tool.update({ app: { resourceUri: 'ui://apps/clock', html: '<p>v2</p>', prefersBorder: true } });
    expect((await c.readResource('ui://apps/clock')).contents).toEqual([
      { uri: 'ui://apps/clock', mimeType: 'text/html;profile=mcp-app', text: '<p>v2</p>', _meta: { ui: { csp: { connectDomains: ['wss://time.example.com'] }, prefersBorder: true } } },
    ]);
  });

  it('works the same at 2026-07-28', async () => {
    const s = server();
    s.uiResource('ui://apps/v', HTML);
    s.tool('t', { description: 'd', app: { resourceUri: 'ui://apps/v', visibility: ['model', 'app'] } }, () => 'x');
    const c = await connected(s, { protocolVersion: '2026-07-28' });
    expect((await c.listTools()).tools[0]?.['_meta']).toEqual({ ui: { resourceUri: 'ui://apps/v', visibility: ['model', 'app'] } });
    expect((await c.readResource('ui://apps/v')).contents).toEqual([{ uri: 'ui://apps/v', mimeType: 'text/html;profile=mcp-app', text: HTML }]);
  });
});

describe('MCP Apps: declarations refused at registration', () => {
  const refused = (register: (s: McpServer) => unknown, message: RegExp): void => {
    const s = server();
    expect(() => register(s)).toThrow(RegistrationError);
    expect(() => register(server())).toThrow(message);
    // Nothing half-registered stays behind.
    expect(s.tools.size + s.resources.size).toBe(0);
  };
  const tool = (app: unknown) => (s: McpServer) => s.tool('t', { description: 'd', app: app as never }, () => 'x');
  const view = (uri: string, html: unknown, config: unknown = {}) => (s: McpServer) => s.uiResource(uri, html as never, config as never);

  it('a resourceUri that is not ui://', () => {
    refused(tool({ resourceUri: 'https://example.com/view' }), /must start with "ui:\/\/"/);
    refused(tool({ resourceUri: 'ui://' }), /must start with "ui:\/\/" and name the view/);
    refused(view('file:///view.html', HTML), /must start with "ui:\/\/"/);
  });
  it('bad visibility', () => {
    refused(tool({ resourceUri: 'ui://a/b', visibility: [] }), /visibility must list "model", "app" or both/);
    refused(tool({ resourceUri: 'ui://a/b', visibility: ['user'] }), /visibility must list/);
    refused(tool({ resourceUri: 'ui://a/b', visibility: ['app', 'app'] }), /once each/);
  });
  it('resource settings on a tool without html, and unknown keys', () => {
    refused(tool({ resourceUri: 'ui://a/b', csp: { connectDomains: ['https://x.example'] } }), /app\.csp describe the UI resource, not the tool/);
    refused(tool({ resourceUri: 'ui://a/b', sandbox: 'allow-forms' }), /app\.sandbox is not an MCP Apps setting/);
    refused((s) => s.tool('t', { description: 'd', app: { resourceUri: 'ui://a/b' }, _meta: { ui: {} } }, () => 'x'), /_meta\.ui is written from the app settings/);
  });
  it('CSP entries that are not origins (they would be pasted into a CSP header)', () => {
    for (const bad of ["'unsafe-eval'", '*', 'https://a.example/path', 'https://a.example; script-src *', 'api.example.com', 42]) {
      refused(view('ui://a/b', HTML, { csp: { connectDomains: [bad] } }), /is not an origin/);
    }
    refused(view('ui://a/b', HTML, { csp: { scriptDomains: ['https://a.example'] } }), /csp\.scriptDomains is not an MCP Apps CSP setting/);
    refused(view('ui://a/b', HTML, { csp: { frameDomains: 'https://a.example' } }), /must be an array of origins/);
  });
  it('unknown or malformed permissions, domain and prefersBorder', () => {
    refused(view('ui://a/b', HTML, { permissions: { usb: {} } }), /permissions\.usb is not an MCP Apps permission/);
    refused(view('ui://a/b', HTML, { permissions: { camera: true } }), /permissions\.camera must be \{\}/);
    refused(view('ui://a/b', HTML, { domain: 'https://x.example/' }), /domain must be a host name/);
    refused(view('ui://a/b', HTML, { prefersBorder: 'yes' }), /prefersBorder must be true or false/);
  });
  it('html that is not HTML', () => {
    refused(view('ui://a/b', './view.html'), /to serve a file, read it/);
    refused(view('ui://a/b', 42), /html must be the view's HTML/);
    refused(tool({ resourceUri: 'ui://a/b', html: 42 }), /app\.html must be the view's HTML/);
  });
});
