import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../src/server/server.js';
import type { TestClientError } from '../../../src/testing/index.js';
import { client, connected } from '../support.js';

const info = { name: 'caps', version: '1.0.0' };

async function capabilitiesOf(server: McpServer, protocolVersion = '2025-11-25'): Promise<unknown> {
  const c = client(server);
  const result = await c.initialize({ protocolVersion });
  return result['capabilities'];
}

async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  return promise.then(
    () => undefined,
    (e: unknown) => (e as TestClientError).code,
  );
}

describe('capabilities are declared exactly when available', () => {
  it('an empty server declares only logging, and the other lists do not exist', async () => {
    const s = new McpServer(info);
    expect(await capabilitiesOf(s)).toEqual({ logging: {} });
    const c = await connected(s);
    expect(await codeOf(c.listTools())).toBe(-32601);
    expect(await codeOf(c.listResources())).toBe(-32601);
    expect(await codeOf(c.listResourceTemplates())).toBe(-32601);
    expect(await codeOf(c.subscribe('x://y'))).toBe(-32601);
    expect(await codeOf(c.listPrompts())).toBe(-32601);
    expect(await codeOf(c.complete({ type: 'ref/prompt', name: 'p' }, { name: 'a', value: '' }))).toBe(-32601);
    expect(await c.setLevel('info')).toEqual({});
  });

  it('tools only', async () => {
    const s = new McpServer(info);
    s.tool('t', {}, () => 'ok');
    expect(await capabilitiesOf(s)).toEqual({ tools: { listChanged: true }, logging: {} });
  });

  it('static resources: resources with subscribe, no completions', async () => {
    const s = new McpServer(info);
    s.resource('mem://a', {}, () => 'a');
    expect(await capabilitiesOf(s)).toEqual({ resources: { subscribe: true, listChanged: true }, logging: {} });
  });

  it('templates and prompts bring completions', async () => {
    const t = new McpServer(info);
    t.resourceTemplate('mem://{x}', {}, () => 'x');
    expect(await capabilitiesOf(t)).toEqual({ resources: { subscribe: true, listChanged: true }, logging: {}, completions: {} });
    const p = new McpServer(info);
    p.prompt('p', {}, () => 'p');
    expect(await capabilitiesOf(p)).toEqual({ prompts: { listChanged: true }, logging: {}, completions: {} });
  });

  it('a capability appears once something is registered and is gone when it is removed', async () => {
    const s = new McpServer(info);
    const h = s.tool('t', {}, () => 'ok');
    expect(await capabilitiesOf(s)).toHaveProperty('tools');
    h.remove();
    expect(await capabilitiesOf(s)).toEqual({ logging: {} });
  });

  it('configured extra capabilities are added as given', async () => {
    const s = new McpServer({ ...info, capabilities: { experimental: { 'acme/widgets': { v: 1 } } } });
    s.tool('t', {}, () => 'ok');
    expect(await capabilitiesOf(s)).toEqual({ tools: { listChanged: true }, logging: {}, experimental: { 'acme/widgets': { v: 1 } } });
  });

  it('every legacy revision and server/discover (2026-07-28) get the same declaration', async () => {
    const s = new McpServer(info);
    s.tool('t', {}, () => 'ok');
    s.prompt('p', {}, () => 'p');
    const expected = { tools: { listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} };
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) expect(await capabilitiesOf(s, version)).toEqual(expected);
    const modern = client(s, { modern: true });
    expect((await modern.initialize())['capabilities']).toEqual(expected);
  });
});
