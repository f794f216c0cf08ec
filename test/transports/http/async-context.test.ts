/**
 * The async context a request arrives in (AsyncLocalStorage set by middleware, an
 * HTTP instrumentation's active span) reaches the tool handler, synchronous or not,
 * in every mode of the node:http adapter. The adapter answers a synchronous tool in
 * the body's promise reaction: a stream event listener there would lose it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler, type NodeHandler } from '../../../src/adapters/node.js';
import { McpServer } from '../../../src/server/server.js';
import { LEGACY, MODERN } from '../../support/revisions.js';
import { META_CAPABILITIES, META_CLIENT_INFO, META_VERSION } from '../../support/wire.js';
import { initializeBody, post, rpc, sessionHeaders } from './support.js';

const requestId = new AsyncLocalStorage<string>();
let http: Server | undefined;
let handler: NodeHandler | undefined;

afterEach(async () => {
  await handler?.close({ graceMs: 0 });
  await new Promise((resolve) => (http === undefined ? resolve(undefined) : http.close(resolve)));
  http = handler = undefined;
});

async function start(stateless: boolean): Promise<string> {
  const server = new McpServer({ name: 'context', version: '1.0.0' });
  server.tool('sync', {}, () => requestId.getStore() ?? 'lost');
  server.tool('async', {}, async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return requestId.getStore() ?? 'lost';
  });
  handler = createNodeHandler(server, { stateless });
  const serve = handler;
  // What a request-scoped logger or tracing middleware does in front of the MCP handler.
  http = createServer((req, res) => requestId.run(String(req.headers['x-request-id']), () => serve(req, res)));
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

async function callText(url: string, id: number, tool: string, headers: Record<string, string>, meta?: Record<string, unknown>): Promise<unknown> {
  const params = meta === undefined ? { name: tool, arguments: {} } : { name: tool, arguments: {}, _meta: meta };
  const response = await post(url, rpc(id, 'tools/call', params), { ...headers, 'x-request-id': `r${id}` });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result: { content: { text: string }[] } };
  return body.result.content[0]!.text;
}

describe('the request async context reaches tools (node:http adapter)', () => {
  it('legacy stateless', async () => {
    const url = await start(true);
    expect(await callText(url, 1, 'sync', { 'mcp-protocol-version': LEGACY })).toBe('r1');
    expect(await callText(url, 2, 'async', { 'mcp-protocol-version': LEGACY })).toBe('r2');
  });

  it('legacy with a session', async () => {
    const url = await start(false);
    const opened = await post(url, initializeBody());
    await opened.text();
    const headers = sessionHeaders(opened.headers.get('mcp-session-id')!);
    expect(await callText(url, 3, 'sync', headers)).toBe('r3');
    expect(await callText(url, 4, 'async', headers)).toBe('r4');
  });

  it('2026-07-28', async () => {
    const url = await start(false);
    const meta = { [META_VERSION]: MODERN, [META_CLIENT_INFO]: { name: 'c', version: '1' }, [META_CAPABILITIES]: {} };
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' };
    expect(await callText(url, 5, 'sync', { ...headers, 'mcp-name': 'sync' }, meta)).toBe('r5');
    expect(await callText(url, 6, 'async', { ...headers, 'mcp-name': 'async' }, meta)).toBe('r6');
  });
});
