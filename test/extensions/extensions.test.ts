import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { listen } from '../../src/http.js';
import { McpServer, RegistrationError } from '../../src/index.js';
import { TestClientError } from '../../src/testing/index.js';
import { client } from '../protocol/support.js';

// server.extension(): advertised in server/discover and legacy initialize; a tool's
// `requires` fails with -32021 for a client that did not declare the extension.
const EXT = 'com.example/weather-alerts';

function server(): McpServer {
  const s = new McpServer({ name: 'ext', version: '1.0.0', logger: { error: () => undefined } });
  s.extension(EXT, { regions: ['eu'] });
  s.tool('alerts', { description: 'Active alerts', requires: [EXT] }, () => 'none');
  s.tool('forecast', { description: 'Forecast; richer with the alerts extension' }, (_args, ctx) =>
    ctx.client.supports(EXT) ? `Sunny (no alerts in ${String((ctx.client.extension(EXT)?.['region'] as string | undefined) ?? 'any region')})` : 'Sunny',
  );
  return s;
}

const meta = (extensions: Record<string, unknown>) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions },
});

describe('server.extension()', () => {
  it('is listed in legacy initialize capabilities and in server/discover (with io.modelcontextprotocol/ui once an app exists)', async () => {
    const s = server();
    const legacy = client(s);
    const init = await legacy.initialize({ protocolVersion: '2025-11-25' });
    expect(init.capabilities['extensions']).toEqual({ [EXT]: { regions: ['eu'] } });

    s.uiResource('ui://ext/map', '<!doctype html><p>map</p>');
    const modern = client(s, { modern: true });
    const discover = await modern.request('server/discover', { _meta: meta({}) });
    expect((discover['capabilities'] as Record<string, unknown>)['extensions']).toEqual({ [EXT]: { regions: ['eu'] }, 'io.modelcontextprotocol/ui': {} });
  });

  it('a tool that requires it: -32021 with the missing extension in data, then served once declared (2026-07-28, per request)', async () => {
    const c = client(server(), { modern: true });
    const error = await c.request('tools/call', { name: 'alerts', arguments: {}, _meta: meta({}) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestClientError);
    expect((error as TestClientError).code).toBe(-32021);
    expect((error as TestClientError).data).toEqual({ requiredCapabilities: { extensions: { [EXT]: {} } } });
    const ok = await c.request('tools/call', { name: 'alerts', arguments: {}, _meta: meta({ [EXT]: {} }) });
    expect(ok['content']).toEqual([{ type: 'text', text: 'none' }]);
  });

  it('legacy: what the client declared at initialize counts', async () => {
    const without = client(server());
    await without.initialize({ protocolVersion: '2025-11-25' });
    await expect(without.callTool('alerts', {})).rejects.toMatchObject({ code: -32021 });
    const withExt = client(server());
    await withExt.initialize({ protocolVersion: '2025-11-25', capabilities: { extensions: { [EXT]: {} } } });
    expect(await withExt.callTool('alerts', {})).toEqual({ content: [{ type: 'text', text: 'none' }] });
    expect(await withExt.callTool('forecast', {})).toEqual({ content: [{ type: 'text', text: 'Sunny (no alerts in any region)' }] });
  });

  it('the official SDK v2 client declaring the extension gets served over HTTP (2026-07-28)', async () => {
    const listener = await listen(server(), { port: 0 });
    try {
      for (const [capabilities, text] of [[{}, 'Sunny'], [{ extensions: { [EXT]: { region: 'eu' } } }, 'Sunny (no alerts in eu)']] as const) {
        const sdk = new Client({ name: 'sdk-v2', version: '2.4.0' }, { capabilities, versionNegotiation: { mode: 'auto' } });
        await sdk.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
        expect(sdk.getServerCapabilities()?.['extensions']).toEqual({ [EXT]: { regions: ['eu'] } });
        const result = await sdk.callTool({ name: 'forecast', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text }]);
        await sdk.close();
      }
    } finally {
      await listener.close({ graceMs: 0 });
    }
  });

  it('legacy: false lists it in server/discover only (how the tasks extension is declared)', async () => {
    const s = new McpServer({ name: 'x', version: '1' });
    s.extension('com.example/modern-only', {}, { legacy: false });
    s.tool('slow', { description: 'may run as a task', task: 'optional' }, () => 'done');
    const legacy = client(s);
    expect((await legacy.initialize({ protocolVersion: '2025-11-25' })).capabilities['extensions']).toBeUndefined();
    const discover = await client(s, { modern: true }).request('server/discover', { _meta: meta({}) });
    expect((discover['capabilities'] as Record<string, unknown>)['extensions']).toEqual({ 'com.example/modern-only': {}, 'io.modelcontextprotocol/tasks': {} });
    expect(s.hasExtension('io.modelcontextprotocol/tasks')).toBe(true);
    expect(() => s.extension('com.example/modern-only')).toThrow(/already declared with other settings/);
  });

  it('refuses bad identifiers, settings and requires at registration', () => {
    const s = new McpServer({ name: 'x', version: '1' });
    for (const bad of ['weather', 'example.com/', '/x', '1com.example/x', 'com.example/-x', 'com..example/x']) {
      expect(() => s.extension(bad)).toThrow(RegistrationError);
      expect(() => s.extension(bad)).toThrow(/is not an extension identifier; write \{vendor-prefix\}\/\{name\}/);
    }
    expect(() => s.extension(EXT, [] as never)).toThrow(/settings must be a JSON object/);
    s.extension(EXT, { a: 1 });
    s.extension(EXT, { a: 1 });
    expect(() => s.extension(EXT, { a: 2 })).toThrow(/already declared with other settings/);
    expect(() => s.tool('t', { requires: ['nope'] }, () => 'x')).toThrow(/Tool "t": requires: "nope" is not an extension identifier/);
    expect(s.tools.size).toBe(0);
  });
});
