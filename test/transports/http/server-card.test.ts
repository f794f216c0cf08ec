import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/index.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { rawRequest } from './support.js';

// The experimental MCP Server Card at <endpoint>/server-card, over raw HTTP: media type,
// cache and CORS headers, and the same facts as the server/discover answer.
/** Raw HTTP to a path of the listener's origin (fetch() would not send a chosen Origin). */
const send = (url: URL, path: string, method: string, headers: Record<string, string> = {}, body?: string) =>
  rawRequest(`${url.origin}${path}`, { method, headers, ...(body !== undefined && { body }) });

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateCard = ajv.compile(JSON.parse(readFileSync(new URL('../../registry/server-card.schema.json', import.meta.url), 'utf8')) as object);

let listener: McpHttpListener | undefined;
afterEach(async () => {
  await listener?.close({ graceMs: 0 });
  listener = undefined;
});

function weather(): McpServer {
  const server = new McpServer({
    name: 'weather',
    version: '2.1.0',
    title: 'Weather',
    description: 'Forecasts for any city',
    websiteUrl: 'https://weather.example.com',
    icons: [{ src: 'https://weather.example.com/icon.png', mimeType: 'image/png' }],
  });
  server.tool('forecast', { description: 'Forecast' }, () => 'Sunny');
  return server;
}

describe('server card', () => {
  it('serves the card at <endpoint>/server-card with its media type, cache and CORS headers', async () => {
    listener = await listen(weather(), { serverCard: { name: 'com.example/weather', repository: { url: 'https://github.com/example/weather', source: 'github' } } });
    const url = new URL(listener.url);
    const answer = await send(url, '/mcp/server-card', 'GET', { accept: 'application/mcp-server-card+json', origin: 'https://catalog.example' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/mcp-server-card+json');
    expect(answer.headers['cache-control']).toBe('public, max-age=3600');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-allow-methods']).toBe('GET');
    expect(answer.headers['access-control-allow-headers']).toBe('Content-Type');
    const card = JSON.parse(answer.body) as Record<string, unknown>;
    expect(validateCard(card), JSON.stringify(validateCard.errors)).toBe(true);
    expect(card).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
      name: 'com.example/weather',
      version: '2.1.0',
      description: 'Forecasts for any city',
      title: 'Weather',
      websiteUrl: 'https://weather.example.com',
      icons: [{ src: 'https://weather.example.com/icon.png', mimeType: 'image/png' }],
      repository: { url: 'https://github.com/example/weather', source: 'github' },
      remotes: [{ type: 'streamable-http', url: listener.url, supportedProtocolVersions: ['2026-07-28'] }],
    });

    // The same facts as server/discover, asked over the MCP endpoint itself.
    const discover = await send(url, '/mcp', 'POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }));
    const result = (JSON.parse(discover.body) as { result: { supportedVersions: string[]; _meta: Record<string, Record<string, unknown>> } }).result;
    const info = result._meta['io.modelcontextprotocol/serverInfo']!;
    expect([card['version'], card['description'], card['title']]).toEqual([info['version'], info['description'], info['title']]);
    expect((card['remotes'] as { supportedProtocolVersions: string[] }[])[0]!.supportedProtocolVersions).toEqual(result.supportedVersions);
  });

  it('answers the CORS preflight, HEAD, and refuses other methods with 405', async () => {
    listener = await listen(weather(), { serverCard: { name: 'com.example/weather', url: 'https://mcp.example.com/mcp', maxAgeSeconds: 60 } });
    const url = new URL(listener.url);
    const preflight = await send(url, '/mcp/server-card', 'OPTIONS', { origin: 'https://catalog.example', 'access-control-request-method': 'GET' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    const head = await send(url, '/mcp/server-card', 'HEAD');
    expect([head.status, head.headers['cache-control'], head.body]).toEqual([200, 'public, max-age=60', '']);
    const get = JSON.parse((await send(url, '/mcp/server-card', 'GET')).body) as { remotes: { url: string }[] };
    expect(get.remotes[0]!.url).toBe('https://mcp.example.com/mcp');
    const post = await send(url, '/mcp/server-card', 'POST', { 'content-type': 'application/json' }, '{}');
    expect(post.status).toBe(405);
    expect(post.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(JSON.parse(post.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Method not allowed: the server card answers GET' } });
  });

  it('leaves out what the server does not say (no title, icons or website)', async () => {
    listener = await listen(new McpServer({ name: 'w', version: '1.0.0', description: 'd' }), { serverCard: { name: 'com.example/w' } });
    const card = JSON.parse((await send(new URL(listener.url), '/mcp/server-card', 'GET')).body) as Record<string, unknown>;
    expect(validateCard(card)).toBe(true);
    expect(card).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
      name: 'com.example/w',
      version: '1.0.0',
      description: 'd',
      remotes: [{ type: 'streamable-http', url: listener.url, supportedProtocolVersions: ['2026-07-28'] }],
    });
  });

  it('is off by default (404), and bad options are refused when the handler is made', async () => {
    listener = await listen(weather());
    expect((await send(new URL(listener.url), '/mcp/server-card', 'GET')).status).toBe(404);
    await listener.close({ graceMs: 0 });
    listener = undefined;
    await expect(listen(weather(), { serverCard: { name: 'weather' } })).rejects.toThrow(/serverCard\.name must be reverse-DNS namespace\/name/);
    await expect(listen(new McpServer({ name: 'x', version: '1' }), { serverCard: { name: 'com.example/x' } })).rejects.toThrow(/serverCard needs the server's description/);
    await expect(listen(weather(), { serverCard: { name: 'com.example/w', url: 'mcp.example.com' } })).rejects.toThrow(/serverCard\.url must be an http\(s\) URL/);
  });
});
