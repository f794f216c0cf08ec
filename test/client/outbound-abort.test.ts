/**
 * What a transport learns of a request's abandonment: `info.abort` (an AbortSignalLike, what mcpkit's
 * transports read) and `info.signal` (an AbortSignal, made only when a transport reads it) abort together.
 */
import { describe, expect, it } from 'vitest';
import { Client, type ClientTransport, type OutboundInfo, type TransportSink } from '../../src/client.js';
import type { JsonRpcMessage } from '../../src/jsonrpc/message.js';

/** Answers initialize; every other request stays unanswered, its OutboundInfo kept. */
function silentTransport(): { transport: ClientTransport; infos: OutboundInfo[] } {
  const infos: OutboundInfo[] = [];
  let sink: TransportSink | undefined;
  const transport: ClientTransport = {
    start: (s) => {
      sink = s;
      return Promise.resolve();
    },
    send: (message: JsonRpcMessage, info?: OutboundInfo) => {
      const m = message as { id?: number; method?: string; params?: { protocolVersion?: string } };
      if (m.method === 'initialize') {
        queueMicrotask(() => sink?.message({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'silent', version: '1.0.0' } } }));
      } else if (m.id !== undefined && info !== undefined) infos.push(info);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  return { transport, infos };
}

describe('OutboundInfo abort', () => {
  it('a transport reading info.signal gets an AbortSignal that aborts when the request times out', async () => {
    const { transport, infos } = silentTransport();
    const client = new Client({ protocolVersion: '2025-11-25' });
    await client.connect(transport);
    const call = client.request('tools/list', {}, { timeoutMs: 20 });
    await Promise.resolve();
    expect(infos).toHaveLength(1);
    const info = infos[0]!;
    const signal = info.signal!;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
    const fired = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    await expect(call).rejects.toMatchObject({ kind: 'timeout' });
    await fired;
    expect(info.abort?.aborted).toBe(true);
    expect(signal.aborted).toBe(true);
    await client.close();
  });

  it('info.abort alone (no signal read) tells the transport the request was aborted by its caller', async () => {
    const { transport, infos } = silentTransport();
    const client = new Client({ protocolVersion: '2025-11-25' });
    await client.connect(transport);
    const controller = new AbortController();
    const call = client.request('tools/list', {}, { signal: controller.signal });
    await Promise.resolve();
    const abort = infos[0]!.abort!;
    const seen: boolean[] = [];
    abort.addEventListener('abort', () => seen.push(abort.aborted));
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
    expect(seen).toEqual([true]);
    await client.close();
  });
});
