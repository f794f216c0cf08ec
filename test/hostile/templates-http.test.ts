/**
 * Hostile resource URIs against a real server on 127.0.0.1: a URI over
 * `maxUriLength` gets the revision's resource-not-found error with a clear
 * message (and the server keeps serving), URIs built to make a backtracking
 * matcher quadratic are answered, and `%2F` never reaches a simple
 * template variable as a `/`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type McpHttpListener } from '../../src/http.js';
import { DEFAULT_MAX_URI_LENGTH, McpServer } from '../../src/index.js';
import { harness, modernMeta } from '../support/wire.js';
import { post, rpc } from '../transports/http/support.js';

const LEGACY = '2025-11-25';
const seen: Record<string, unknown>[] = [];

function build(config: Partial<ConstructorParameters<typeof McpServer>[0]> = {}): McpServer {
  const server = new McpServer({ name: 'templates', version: '1.0.0', ...config });
  const echo = (uri: string, variables: Record<string, unknown>): string => {
    seen.push(variables);
    return JSON.stringify({ uri: uri.length, variables });
  };
  server.resourceTemplate('date://{year}-{month}-{day}', { name: 'date' }, echo);
  server.resourceTemplate('db://{schema}.{table}', { name: 'table' }, echo);
  server.resourceTemplate('x://{a}{b}{c}', { name: 'abc' }, echo);
  server.resourceTemplate('docs://{+section}/{+page}.md', { name: 'docs' }, echo);
  server.resourceTemplate('files://{name}', { name: 'file' }, echo);
  server.resourceTemplate('seg://{/path}/raw', { name: 'segment' }, echo);
  server.resourceTemplate('search://{?q}', { name: 'search' }, echo);
  return server;
}

let listener: McpHttpListener;
beforeAll(async () => {
  listener = await listen(build(), { port: 0, keepAliveMs: 0, stateless: true, limits: { maxBodyBytes: 1 << 20 } });
});
afterAll(async () => {
  await listener.close({ graceMs: 0 });
});

async function read(uri: string, id = 1): Promise<Record<string, unknown>> {
  const response = await post(listener.url, rpc(id, 'resources/read', { uri }), { 'mcp-protocol-version': LEGACY });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

const tooLong = (uri: string, limit = DEFAULT_MAX_URI_LENGTH): string =>
  `Resource URI too long: ${uri.length} characters, more than the limit of ${limit} (maxUriLength)`;

describe('URI length limit', () => {
  it('documents 8192 as the default', () => {
    expect(DEFAULT_MAX_URI_LENGTH).toBe(8192);
  });

  it('a 50 KB URI gets -32002 with a clear message (legacy, over HTTP), and the server keeps serving', async () => {
    const uri = `date://${'1-'.repeat(25_000)}/`;
    expect(await read(uri)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32002, message: tooLong(uri), data: { uri } } });
    const ok = await read('date://2026-11-30', 2);
    expect(ok['result']).toEqual({
      contents: [{ uri: 'date://2026-11-30', text: JSON.stringify({ uri: 17, variables: { year: '2026', month: '11', day: '30' } }) }],
    });
  });

  it('gets -32602 (invalid params) with the same message on 2026-07-28', async () => {
    const h = harness(build());
    const uri = `db://${'a.'.repeat(25_000)}/`;
    const response = await h.request('resources/read', { uri, _meta: modernMeta() });
    expect(response['error']).toEqual({ code: -32602, message: tooLong(uri), data: { uri } });
  });

  it('is an option; a static resource with a longer URI is still served', async () => {
    const server = build({ limits: { maxUriLength: 40 } });
    const longStatic = `static://${'s'.repeat(60)}`;
    server.resource(longStatic, { name: 'long' }, () => 'static');
    const h = harness(server);
    await h.initialize(LEGACY);
    const uri = `files://${'n'.repeat(33)}`; // 41 characters
    expect((await h.request('resources/read', { uri }))['error']).toEqual({ code: -32002, message: tooLong(uri, 40), data: { uri } });
    expect((await h.request('resources/read', { uri: uri.slice(0, -1) }))['result']).toBeDefined();
    expect((await h.request('resources/read', { uri: longStatic }))['result']).toEqual({ contents: [{ uri: longStatic, text: 'static' }] });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxUriLength %s at construction', (value) => {
    expect(() => build({ limits: { maxUriLength: value } })).toThrow(`maxUriLength must be a positive integer (got ${String(value)})`);
  });
});

describe('URIs that made the old matcher quadratic, just under the limit', () => {
  const n = DEFAULT_MAX_URI_LENGTH - 16;
  it.each([
    ['date', `date://${'1-'.repeat(n / 2)}/`],
    ['table', `db://${'a.'.repeat(n / 2)}/`],
    ['abc', `x://${'a'.repeat(n)}/`],
    ['docs', `docs://${'a/'.repeat(n / 2)}x`],
  ])('%s: answered "not found" (no template matches)', async (_name, uri) => {
    const response = await read(uri);
    expect(response['error']).toEqual({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } });
  });

  it('and long URIs that do match are read', async () => {
    const uri = `docs://${'a/'.repeat(n / 2 - 8)}page.md`;
    const response = await read(uri);
    const text = (response['result'] as { contents: { text: string }[] }).contents[0]!.text;
    expect(JSON.parse(text)).toEqual({ uri: uri.length, variables: { section: 'a/'.repeat(n / 2 - 9) + 'a', page: 'page' } });
  });
});

describe('percent-encoded reserved characters', () => {
  const variablesOf = async (uri: string): Promise<unknown> => {
    const response = await read(uri);
    const text = (response['result'] as { contents: { text: string }[] }).contents[0]!.text;
    return (JSON.parse(text) as { variables: unknown }).variables;
  };

  it('%2F stays encoded in a simple {var}: no path traversal', async () => {
    expect(await variablesOf('files://..%2F..%2Fetc%2Fpasswd')).toEqual({ name: '..%2F..%2Fetc%2Fpasswd' });
    expect(await variablesOf('files://a%2fb')).toEqual({ name: 'a%2Fb' });
  });

  it('a raw / does not match a simple {var} at all', async () => {
    const response = await read('files://../../etc/passwd');
    expect(response['error']).toMatchObject({ code: -32002, message: 'Resource not found: files://../../etc/passwd' });
  });

  it('other reserved characters stay encoded too; unreserved and non-ASCII ones are decoded', async () => {
    expect(await variablesOf('files://a%3Fb%23c%40d%21e%20f%C3%BC%7E')).toEqual({ name: 'a%3Fb%23c%40d%21e fü~' });
    expect(await variablesOf('seg:///..%2Fetc/raw')).toEqual({ path: '..%2Fetc' });
  });

  it('query values and reserved expansions are decoded fully', async () => {
    expect(await variablesOf('search://?q=cats%20%26%20dogs%2Fbirds')).toEqual({ q: 'cats & dogs/birds' });
    expect(await variablesOf('docs://a%2Fb/c.md')).toEqual({ section: 'a/b', page: 'c' });
  });
});
