/**
 * SEP-2243 routing headers on 2026-07-28 requests: Mcp-Method, Mcp-Name
 * (with the `=?base64?…?=` form) and Mcp-Param-* must agree with the body,
 * else 400 -32020; `x-mcp-header` annotations are checked at registration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/index.js';
import { listen, type McpHttpListener } from '../../../src/http.js';
import { expectValidWire } from '../../support/wire-schema.js';
import { meta, MODERN, postRaw } from '../../fixtures/modern-http.mjs';

let listener: McpHttpListener;
let url: string;

const regionTool = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
    nested: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
  },
};

beforeAll(async () => {
  // 'Grüße' is outside the MCP tool-name rules (hence strictToolNames: false): the base64 form of Mcp-Name is for such names.
  const server = new McpServer({ name: 'routing', version: '1.0.0', strictToolNames: false });
  server.tool('deploy', { input: regionTool }, (args) => `deployed ${JSON.stringify(args)}`);
  server.tool('Grüße', { input: { type: 'object', properties: {} } }, () => 'unicode name');
  server.tool('Echo', { input: { type: 'object', properties: {} } }, () => 'capital E');
  server.resource('memo://a%20b', { name: 'spaced' }, () => 'spaced uri');
  listener = await listen(server, { port: 0, keepAliveMs: 0 });
  url = listener.url;
});
afterAll(async () => {
  await listener.close({ graceMs: 0 });
});

function body(method: string, params: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta() } };
}

async function send(method: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<{ status: number; message: Record<string, unknown> }> {
  const reply = await postRaw(url, body(method, params), { 'mcp-protocol-version': MODERN, ...headers });
  const message = reply.messages[0] as Record<string, unknown>;
  expectValidWire(message, MODERN, 'result' in message ? method : undefined);
  return { status: reply.status, message };
}

async function expectMismatch(method: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<void> {
  const { status, message } = await send(method, params, headers);
  expect(status).toBe(400);
  expect(message).toMatchObject({ id: 1, error: { code: -32020 } });
}

async function expectOk(method: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const { status, message } = await send(method, params, headers);
  expect(status).toBe(200);
  expect(message).toHaveProperty('result');
  return message['result'] as Record<string, unknown>;
}

const b64 = (s: string): string => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
const call = (name: string, args: Record<string, unknown> = {}): Record<string, unknown> => ({ name, arguments: args });

describe('Mcp-Method', () => {
  it('missing → -32020', () => expectMismatch('tools/list', {}, {}));
  it('different from the body → -32020', () => expectMismatch('tools/list', {}, { 'mcp-method': 'prompts/list' }));
  it('matching (surrounding whitespace trimmed) → served', () => expectOk('tools/list', {}, { 'mcp-method': '  tools/list ' }));
});

describe('Mcp-Name', () => {
  it('missing on tools/call → -32020', () => expectMismatch('tools/call', call('Echo'), { 'mcp-method': 'tools/call' }));
  it('different → -32020', () => expectMismatch('tools/call', call('Echo'), { 'mcp-method': 'tools/call', 'mcp-name': 'deploy' }));
  it('names are case-sensitive: "echo" does not name "Echo"', () => expectMismatch('tools/call', call('Echo'), { 'mcp-method': 'tools/call', 'mcp-name': 'echo' }));
  it('whitespace around the value is trimmed', async () => {
    const result = await expectOk('tools/call', call('Echo'), { 'mcp-method': 'tools/call', 'mcp-name': ' Echo  ' });
    expect(result['content']).toEqual([{ type: 'text', text: 'capital E' }]);
  });
  it('=?base64?…?= carries non-ASCII names', async () => {
    const result = await expectOk('tools/call', call('Grüße'), { 'mcp-method': 'tools/call', 'mcp-name': b64('Grüße') });
    expect(result['content']).toEqual([{ type: 'text', text: 'unicode name' }]);
  });
  it('the sentinel on a resource URI', () => expectOk('resources/read', { uri: 'memo://a%20b' }, { 'mcp-method': 'resources/read', 'mcp-name': b64('memo://a%20b') }));
  it('resources/read without Mcp-Name → -32020', () => expectMismatch('resources/read', { uri: 'memo://a%20b' }, { 'mcp-method': 'resources/read' }));
  it.each([
    ['bad padding', '=?base64?RWNob===?='],
    ['missing padding', '=?base64?RWNobw?='],
    ['characters outside the alphabet', '=?base64?RW*obw==?='],
    ['invalid UTF-8', `=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`],
    ['a valid encoding of another name', b64('deploy')],
  ])('strict base64 decoding: %s → -32020', (_why, value) => expectMismatch('tools/call', call('Echo'), { 'mcp-method': 'tools/call', 'mcp-name': value }));
});

describe('Mcp-Param-*', () => {
  const base = { 'mcp-method': 'tools/call', 'mcp-name': 'deploy' };
  it('string, integer and boolean values matching the arguments → served', async () => {
    const result = await expectOk('tools/call', call('deploy', { region: 'eu-west', count: 3, dryRun: true, nested: { zone: 'b' } }), {
      ...base,
      'mcp-param-region': 'eu-west',
      'mcp-param-count': '3',
      'mcp-param-dry-run': 'true',
      'mcp-param-zone': 'b',
    });
    expect(result['isError']).not.toBe(true);
  });
  it('integers compare numerically ("3.0" names 3)', () => expectOk('tools/call', call('deploy', { count: 3 }), { ...base, 'mcp-param-count': '3.0' }));
  it('header names are case-insensitive (declared "Region", sent as MCP-PARAM-REGION)', () =>
    expectOk('tools/call', call('deploy', { region: 'us' }), { ...base, 'MCP-PARAM-REGION': 'us' }));
  it('a base64 parameter value', () => expectOk('tools/call', call('deploy', { region: 'zürich' }), { ...base, 'mcp-param-region': b64('zürich') }));
  it('string mismatch → -32020', () => expectMismatch('tools/call', call('deploy', { region: 'eu' }), { ...base, 'mcp-param-region': 'us' }));
  it('integer mismatch → -32020', () => expectMismatch('tools/call', call('deploy', { count: 3 }), { ...base, 'mcp-param-count': '4' }));
  it('boolean mismatch → -32020', () => expectMismatch('tools/call', call('deploy', { dryRun: false }), { ...base, 'mcp-param-dry-run': 'true' }));
  it('boolean spelled differently → -32020', () => expectMismatch('tools/call', call('deploy', { dryRun: true }), { ...base, 'mcp-param-dry-run': 'TRUE' }));
  it('the body has the value but the header is missing → -32020', () => expectMismatch('tools/call', call('deploy', { region: 'eu' }), base));
  it('the header is present but the argument is not → -32020', () => expectMismatch('tools/call', call('deploy', {}), { ...base, 'mcp-param-region': 'eu' }));
  it('nested argument without its header → -32020', () => expectMismatch('tools/call', call('deploy', { nested: { zone: 'a' } }), base));
});

describe('x-mcp-header at registration', () => {
  const server = new McpServer({ name: 'reg', version: '1.0.0' });
  const register = (name: string, input: Record<string, unknown>) => () => server.tool(name, { input }, () => 'x');
  it('on a number property', () => {
    expect(register('n', { type: 'object', properties: { x: { type: 'number', 'x-mcp-header': 'X' } } })).toThrow(/x-mcp-header.*string, integer or boolean/);
  });
  it('inside items', () => {
    expect(register('i', { type: 'object', properties: { xs: { type: 'array', items: { type: 'string', 'x-mcp-header': 'X' } } } })).toThrow(/invalid x-mcp-header/);
  });
  it('inside anyOf', () => {
    expect(register('a', { type: 'object', properties: { x: { anyOf: [{ type: 'string', 'x-mcp-header': 'X' }] } } })).toThrow(/invalid x-mcp-header/);
  });
  it('duplicate names, case-insensitively', () => {
    expect(
      register('d', { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Zone' }, b: { type: 'string', 'x-mcp-header': 'ZONE' } } }),
    ).toThrow(/used twice/);
  });
  it('a name that is not an HTTP token', () => {
    expect(register('t', { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'bad name' } } })).toThrow(/not an HTTP field-name token/);
  });
  it('nothing was registered by the failed attempts; a valid annotation registers', () => {
    expect(server.tools.size).toBe(0);
    expect(register('ok', { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Tenant-Id' } } })).not.toThrow();
    expect(server.tools.size).toBe(1);
  });
});
