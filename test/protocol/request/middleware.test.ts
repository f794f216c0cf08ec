import { describe, expect, it } from 'vitest';
import { JsonRpcProtocolError } from '../../../src/jsonrpc/errors.js';
import type { AuthInfo } from '../../../src/protocol/connection.js';
import { McpServer } from '../../../src/server/server.js';
import type { TestClientError } from '../../../src/testing/index.js';
import { client, connected, lastResponse } from '../support.js';

function make(): McpServer {
  const s = new McpServer({ name: 'mw', version: '1.0.0', logger: { error: () => undefined } });
  s.tool('read', {}, (args) => `read ${JSON.stringify(args)}`);
  s.tool('delete', { annotations: { destructiveHint: true } }, () => 'deleted');
  s.prompt('p', {}, () => 'p');
  return s;
}

describe('middleware', () => {
  it('runs around every request in onion order and sees method, params and result', async () => {
    const s = make();
    const log: string[] = [];
    s.use(async (ctx, next) => {
      log.push(`outer> ${ctx.method} ${JSON.stringify(ctx.params)}`);
      const result = await next();
      log.push(`outer< ${ctx.method} ${Object.keys(result as object).join(',')}`);
      return result;
    });
    s.use(async (ctx, next) => {
      log.push(`inner> ${ctx.method}`);
      try {
        return await next();
      } finally {
        log.push(`inner< ${ctx.method}`);
      }
    });
    const c = await connected(s);
    await c.callTool('read', { id: 1 });
    expect(log).toEqual([
      'outer> initialize {"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpkit-test-client","version":"0.0.0"}}',
      'inner> initialize',
      'inner< initialize',
      'outer< initialize protocolVersion,capabilities,serverInfo',
      'outer> tools/call {"name":"read","arguments":{"id":1}}',
      'inner> tools/call',
      'inner< tools/call',
      'outer< tools/call content',
    ]);
  });

  it('timing: a middleware can measure a request and annotate its result', async () => {
    const s = make();
    s.use('tools/call', async (ctx, next) => {
      const started = performance.now();
      ctx.request.state['started'] = started;
      const result = await next();
      return { ...result, _meta: { ...result._meta, durationMs: performance.now() - started } };
    });
    const c = await connected(s);
    const result = await c.callTool('read');
    const meta = result['_meta'] as { durationMs: unknown };
    expect(typeof meta.durationMs).toBe('number');
    expect(meta.durationMs as number).toBeGreaterThanOrEqual(0);
    // Only the method it was registered for is touched.
    expect(await c.listTools()).not.toHaveProperty('_meta');
  });

  it('can change params before the handler runs', async () => {
    const s = make();
    s.use('tools/call', async (ctx, next) => {
      ctx.params = { ...ctx.params, arguments: { ...ctx.params.arguments, injected: true } };
      return next();
    });
    const c = await connected(s);
    expect((await c.callTool('read', { id: 2 }))['content']).toEqual([{ type: 'text', text: 'read {"id":2,"injected":true}' }]);
  });

  it('access control: tools/list is filtered by the caller and forbidden calls are refused', async () => {
    const s = make();
    const isAdmin = (auth: AuthInfo | undefined): boolean => auth?.scopes?.includes('admin') === true;
    s.use('tools/list', async (ctx, next) => {
      const result = await next();
      if (isAdmin(ctx.request.authInfo)) return result;
      return { ...result, tools: result.tools.filter((t) => (t['annotations'] as { destructiveHint?: boolean } | undefined)?.destructiveHint !== true) };
    });
    s.use('tools/call', async (ctx, next) => {
      if (ctx.params.name === 'delete' && !isAdmin(ctx.request.authInfo)) {
        throw new JsonRpcProtocolError(-32001, `Forbidden: ${ctx.request.authInfo?.clientId ?? 'anonymous'} may not call delete`);
      }
      return next();
    });
    const admin = await connected(s, { authInfo: { clientId: 'root', scopes: ['admin'] } });
    const user = await connected(s, { authInfo: { clientId: 'alice', scopes: ['read'] } });
    const names = async (c: typeof admin): Promise<unknown[]> => ((await c.listTools())['tools'] as { name: string }[]).map((t) => t.name);
    expect(await names(admin)).toEqual(['read', 'delete']);
    expect(await names(user)).toEqual(['read']);
    expect(await admin.callTool('delete')).toEqual({ content: [{ type: 'text', text: 'deleted' }] });
    const error = (await user.callTool('delete').catch((e: unknown) => e)) as TestClientError;
    expect(error.code).toBe(-32001);
    expect(lastResponse(user)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32001, message: 'Forbidden: alice may not call delete' } });
  });

  it('can answer without calling next, and can map errors thrown inside', async () => {
    const s = make();
    s.use('prompts/list', async () => ({ prompts: [{ name: 'virtual' }] }));
    s.use('tools/call', async (_ctx, next) => {
      try {
        return await next();
      } catch {
        return { content: [{ type: 'text' as const, text: 'handled by middleware' }], isError: true };
      }
    });
    const c = await connected(s);
    expect(await c.listPrompts()).toEqual({ prompts: [{ name: 'virtual' }] });
    expect(await c.callTool('missing')).toEqual({ content: [{ type: 'text', text: 'handled by middleware' }], isError: true });
  });
});

describe('middleware failures', () => {
  it('an unexpected throw in a middleware is -32603 "Internal error" with nothing leaked', async () => {
    const s = make();
    s.use('tools/list', async () => {
      throw new Error('connection string postgres://admin:pw@db');
    });
    const c = await connected(s);
    await c.listTools().catch(() => undefined);
    expect(lastResponse(c)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal error' } });
    expect(await c.listPrompts()).toEqual({ prompts: [{ name: 'p' }] });
  });

  it('runs on the 2026-07-28 path too, seeing the request _meta', async () => {
    const s = make();
    const versions: unknown[] = [];
    s.use(async (ctx, next) => {
      versions.push((ctx.params['_meta'] as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/protocolVersion']);
      return next();
    });
    const c = client(s, { modern: true });
    await c.listTools();
    expect(versions).toEqual(['2026-07-28']);
  });
});
