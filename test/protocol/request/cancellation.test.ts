import { describe, expect, it } from 'vitest';
import { McpServer, type McpServerConfig } from '../../../src/server/server.js';
import type { TestClientError } from '../../../src/testing/index.js';
import { connected } from '../support.js';

/** A handler that waits for its signal and records why it stopped. */
function waiter(started: () => void, reasons: unknown[]) {
  return (_args: unknown, ctx: { signal: AbortSignal }): Promise<string> =>
    new Promise<string>((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        reasons.push(ctx.signal.reason);
        reject(ctx.signal.reason as Error);
      });
      started();
    });
}

function make(config: Pick<McpServerConfig, 'limits'> = {}) {
  const server = new McpServer({ name: 'cancel', version: '1.0.0', logger: { error: () => undefined }, ...config });
  const reasons: unknown[] = [];
  let onStart: () => void = () => undefined;
  const started = (): Promise<void> => new Promise<void>((resolve) => (onStart = resolve));
  server.tool('wait', {}, waiter(() => onStart(), reasons));
  server.tool('quick', { timeoutMs: 30 }, waiter(() => onStart(), reasons));
  server.tool('echo', {}, () => 'still here');
  server.resource('slow://thing', {}, (ctx) => waiter(() => onStart(), reasons)(undefined, ctx));
  return { server, reasons, started };
}

describe('cancellation', () => {
  it('notifications/cancelled aborts ctx.signal and the request gets no response', async () => {
    const { server, reasons, started } = make();
    const c = await connected(server);
    const controller = new AbortController();
    const running = started();
    const call = c.callTool('wait', {}, { signal: controller.signal });
    await running;
    controller.abort('user pressed stop');
    const error = (await call.catch((e: unknown) => e)) as TestClientError;
    expect(error.code).toBe(0);
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as Error).message).toBe('Request cancelled: user pressed stop');
    // Nothing answered request 2; the connection keeps serving.
    expect(c.messages.filter((m) => 'id' in m && m.id === 2)).toEqual([]);
    expect(await c.callTool('echo')).toEqual({ content: [{ type: 'text', text: 'still here' }] });
  });

  it('cancelling an id that is not in flight is ignored', async () => {
    const { server } = make();
    const c = await connected(server);
    await c.notify('notifications/cancelled', { requestId: 999, reason: 'stale' });
    expect(await c.ping()).toEqual({});
  });
});

describe('timeouts', () => {
  it('a per-tool timeout aborts the signal and answers a clear tool error', async () => {
    const { server, reasons } = make();
    const c = await connected(server);
    expect(await c.callTool('quick')).toEqual({
      content: [{ type: 'text', text: 'Request timed out: tools/call did not finish within 30 ms' }],
      isError: true,
    });
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as Error).message).toBe('Request timed out: tools/call did not finish within 30 ms');
  });

  it('the server-wide timeout answers other requests with a JSON-RPC error; a tool timeout wins for its tool', async () => {
    const { server, reasons } = make({ limits: { requestTimeoutMs: 40 } });
    const c = await connected(server);
    const error = (await c.readResource('slow://thing').catch((e: unknown) => e)) as TestClientError;
    expect(error.code).toBe(-32603);
    expect(error.detail).toBe('Request timed out: resources/read did not finish within 40 ms');
    expect(error.data).toEqual({ timeoutMs: 40 });
    const quick = await c.callTool('quick');
    expect(quick['content']).toEqual([{ type: 'text', text: 'Request timed out: tools/call did not finish within 30 ms' }]);
    const wait = await c.callTool('wait');
    expect(wait['content']).toEqual([{ type: 'text', text: 'Request timed out: tools/call did not finish within 40 ms' }]);
    expect(reasons).toHaveLength(3);
  });
});
