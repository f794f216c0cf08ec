/**
 * A tool that starts a graceful shutdown of the server it runs on (an admin
 * "shutdown" or "restart" tool) and then finishes its work within the grace
 * period must still get its answer out: close({ graceMs }) lets in-flight
 * requests finish. A call enters the engine's in-flight set only once its
 * handler returned a promise, so a close() started in the handler's synchronous
 * part did not see the very call that started it: the grace period was skipped,
 * the connection was cut and the client got no answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type McpHttpListener } from '../../src/http.js';
import { McpServer } from '../../src/server/server.js';
import { openSession, post, rpc, sessionHeaders } from '../transports/http/support.js';

let listener: McpHttpListener | undefined;
afterEach(async () => {
  await listener?.close({ graceMs: 0 });
  listener = undefined;
});

function shutdownServer(closing: Promise<void>[]): McpServer {
  const server = new McpServer({ name: 'admin', version: '1.0.0' });
  server.tool('shutdown', {}, async () => {
    // Synchronous part of the handler: the shutdown starts before its first await.
    closing.push(listener!.close({ graceMs: 5_000 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 'bye';
  });
  server.tool('shutdownNow', {}, () => {
    closing.push(listener!.close({ graceMs: 5_000 }));
    return 'bye now';
  });
  return server;
}

/** Calls `tool` (which starts the shutdown) and expects its own answer, then the shutdown to finish. */
async function expectAnswered(tool: string, text: string, stateless: boolean): Promise<void> {
  const closing: Promise<void>[] = [];
  listener = await listen(shutdownServer(closing), { port: 0, keepAliveMs: 0, ...(stateless ? { stateless: true } : {}) });
  const headers = stateless ? { 'mcp-protocol-version': '2025-06-18' } : sessionHeaders(await openSession(listener.url));
  const response = await post(listener.url, rpc(1, 'tools/call', { name: tool, arguments: {} }), headers);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ id: 1, result: { content: [{ type: 'text', text }] } });
  await closing[0];
}

describe('close({ graceMs }) started by a handler before its first await', () => {
  it('waits for that call and delivers its answer (session)', () => expectAnswered('shutdown', 'bye', false));

  it('waits for that call and delivers its answer (stateless)', () => expectAnswered('shutdown', 'bye', true));

  it('still answers a synchronous handler that starts the shutdown', () => expectAnswered('shutdownNow', 'bye now', false));
});
