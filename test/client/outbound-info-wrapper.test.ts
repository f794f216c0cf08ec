/**
 * A transport in front of another (logging, headers, a deadline of its own) that gives the inner one
 * a signal of its own: by assigning `info.signal` or by spreading `{ ...info, signal }`. The client's
 * OutboundInfo holds `signal` as a getter and `abort` beside it; neither may turn that into a
 * TypeError, or make mcpkit's transports ignore the signal they were given.
 */
import { expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { Client, InMemoryTransport, StreamableHttpTransport, type ClientTransport, type OutboundInfo } from '../../src/client.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { eventually } from '../support/eventually.js';
import { silentOnCalls } from './support/silent-http.js';

const cleanup = cleanupAfterEach();

/**
 * In front of `inner`: the inner transport gets the client's signal and `own`'s, by `how`; or only
 * `own`, never having read the client's (`replace`); or a copy of the info, `own` unused (`copy`).
 */
function wrapper(inner: ClientTransport, own: AbortSignal, how: 'assign' | 'spread' | 'replace' | 'copy'): ClientTransport {
  return {
    start: (sink) => inner.start(sink),
    send: (message, info?: OutboundInfo) => {
      if (info !== undefined && how === 'replace') return inner.send(message, { ...info, signal: own });
      if (info !== undefined && how === 'copy') return inner.send(message, { ...info });
      if (info === undefined || info.signal === undefined) return inner.send(message, info);
      const signal = AbortSignal.any([info.signal, own]);
      if (how === 'spread') return inner.send(message, { ...info, signal });
      info.signal = signal;
      return inner.send(message, info);
    },
    negotiated: (version) => inner.negotiated?.(version),
    close: () => inner.close(),
  };
}

function hangingServer(seen: { aborted: number }): McpServer {
  const server = new McpServer({ name: 'hang', version: '1.0.0' });
  server.tool('hang', { description: 'answers when aborted' }, (_args, ctx) => new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => ((seen.aborted += 1), resolve('aborted')))));
  return server;
}

it.each(['assign', 'spread'] as const)('in memory, %s: the wrapper signal reaches the server', async (how) => {
  const seen = { aborted: 0 };
  const own = new AbortController();
  const client = new Client({ protocolVersion: '2025-11-25' });
  cleanup.push(() => client.close());
  await client.connect(wrapper(new InMemoryTransport(hangingServer(seen)), own.signal, how));
  const call = client.callTool('hang', {}, { timeoutMs: 2000 });
  setTimeout(() => own.abort(new Error('the wrapper gave up')), 20);
  await expect(call).resolves.toMatchObject({ content: [{ type: 'text', text: 'aborted' }] });
  expect(seen.aborted).toBe(1);
});

it.each([
  ['2025-11-25', 'assign'],
  ['2025-11-25', 'spread'],
  ['2026-07-28', 'assign'],
  ['2026-07-28', 'spread'],
] as const)('over HTTP, %s, %s: the wrapper signal ends the exchange', async (version, how) => {
  const upstream = await silentOnCalls(version);
  cleanup.push(() => upstream.close());
  const own = new AbortController();
  const client = new Client({ protocolVersion: version });
  cleanup.push(() => client.close());
  await client.connect(wrapper(new StreamableHttpTransport(upstream.url, { openGetStream: false }), own.signal, how));
  void client.callTool('slow', {}, { timeoutMs: 0 }).catch(() => undefined);
  await eventually(() => upstream.calls() === 1);
  expect(upstream.callsClosed()).toBe(0);
  own.abort(new Error('the wrapper gave up'));
  await eventually(() => upstream.callsClosed() === 1, { deadlineMs: 2000, message: 'the call exchange stayed open after the wrapper signal aborted' });
});

it.each(['2025-11-25', '2026-07-28'] as const)('over HTTP, %s: a wrapper that replaces the signal without reading the client\'s has its own honoured', async (version) => {
  const upstream = await silentOnCalls(version);
  cleanup.push(() => upstream.close());
  const own = new AbortController();
  const client = new Client({ protocolVersion: version });
  cleanup.push(() => client.close());
  await client.connect(wrapper(new StreamableHttpTransport(upstream.url, { openGetStream: false }), own.signal, 'replace'));
  void client.callTool('slow', {}, { timeoutMs: 0 }).catch(() => undefined);
  await eventually(() => upstream.calls() === 1);
  own.abort(new Error('the wrapper gave up'));
  await eventually(() => upstream.callsClosed() === 1, { deadlineMs: 2000, message: 'the call exchange stayed open after the replacing signal aborted' });
});

it.each(['2025-11-25', '2026-07-28'] as const)('over HTTP, %s: a wrapper that copies the info ({ ...info }) still carries the client\'s abort', async (version) => {
  const upstream = await silentOnCalls(version);
  cleanup.push(() => upstream.close());
  const client = new Client({ protocolVersion: version });
  cleanup.push(() => client.close());
  await client.connect(wrapper(new StreamableHttpTransport(upstream.url, { openGetStream: false }), new AbortController().signal, 'copy'));
  const caller = new AbortController();
  const call = client.callTool('slow', {}, { timeoutMs: 0, signal: caller.signal });
  await eventually(() => upstream.calls() === 1);
  caller.abort(new Error('the caller gave up'));
  await expect(call).rejects.toMatchObject({ kind: 'aborted' });
  await eventually(() => upstream.callsClosed() === 1, { deadlineMs: 2000, message: 'the call exchange stayed open after the client aborted the copied info' });
});
