/**
 * The HTTP engine serves any ConnectionFactory (McpConnection and
 * McpProtocolHandler are public). A second, internal entry point once skipped
 * a subclass's `handleMessage` override over HTTP (here a filter that refuses
 * a tool: the tool ran anyway, though not over stdio); `handleMessage` is now
 * the only one. Subclassing is not an extension point (middleware is), but
 * nothing bypasses the method every transport calls. A connection's promise
 * from another realm (or any thenable) was once taken for the answer itself:
 * 200 with `{}`.
 */
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { McpProtocolHandler } from '../../src/protocol/dispatch/protocol-handler.js';
import type { ConnectionFactory, HandleResult, McpConnection, MessageExtra } from '../../src/protocol/connection.js';
import { McpServer } from '../../src/server/server.js';
import { post, rpc, startNode, type TestServer } from '../transports/http/support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const HEADERS = { 'mcp-protocol-version': '2025-06-18' };

function tools(ran: string[]): McpServer {
  const mcp = new McpServer({ name: 'override', version: '1.0.0' });
  mcp.tool('danger', {}, () => {
    ran.push('danger');
    return 'done';
  });
  return mcp;
}

/** Refuses calls of the tool `danger` before the protocol sees them. */
class FilteringHandler extends McpProtocolHandler {
  override handleMessage(payload: unknown, extra?: MessageExtra): Promise<HandleResult> {
    const message = payload as { id?: number; method?: string; params?: { name?: string } };
    if (message.method === 'tools/call' && message.params?.name === 'danger') {
      return Promise.resolve({ jsonrpc: '2.0', id: message.id ?? null, error: { code: -32600, message: 'refused by the filter' } });
    }
    return Promise.resolve(super.handleMessage(payload, extra));
  }
}

describe('a connection of its own behind the HTTP engine', () => {
  it("answers through a McpProtocolHandler subclass's handleMessage override", async () => {
    const ran: string[] = [];
    const mcp = tools(ran);
    // Built by hand, as the README shows McpProtocolHandler can be.
    const deps = { tools: mcp.tools, resources: mcp.resources, prompts: mcp.prompts, getMetadata: () => mcp.getMetadata() };
    const factory: ConnectionFactory = { openConnection: (options) => new FilteringHandler(deps, options) };
    server = await startNode(factory, { stateless: true });
    const response = await post(server.url, rpc(1, 'tools/call', { name: 'danger', arguments: {} }), HEADERS);
    expect(await response.json()).toMatchObject({ id: 1, error: { message: 'refused by the filter' } });
    expect(ran).toEqual([]);
  });

  it('waits for a handleMessage promise from another realm', async () => {
    const mcp = tools([]);
    const ForeignPromise = runInNewContext('Promise') as PromiseConstructor;
    const factory: ConnectionFactory = {
      openConnection(options) {
        const inner = mcp.openConnection(options);
        const wrapper: McpConnection = {
          handleMessage: (payload, extra) => ForeignPromise.resolve(inner.handleMessage(payload, extra)),
          close: (reason) => inner.close(reason),
        };
        return wrapper;
      },
    };
    server = await startNode(factory, { stateless: true });
    const response = await post(server.url, rpc(2, 'tools/call', { name: 'danger', arguments: {} }), HEADERS);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'done' }] } });
  });
});
