/**
 * A client transport that records every message both ways, as the client sent and
 * received it, so a test can hold the whole conversation to the revision's schema.
 */
import { expect } from 'vitest';
import type { ClientTransport, OutboundInfo, TransportSink } from '../../../src/client.js';
import type { JsonRpcMessage } from '../../../src/jsonrpc/message.js';
import { validateDefinition, validateResult, validateWire } from '../../support/wire-schema.js';

export interface Recorded {
  transport: ClientTransport;
  sent: Record<string, unknown>[];
  received: Record<string, unknown>[];
  /** Methods the client sent, in order. */
  methods(): string[];
  /** Every message both ways is valid at `revision` (responses by the method they answer). */
  expectValid(revision: string): void;
}

export function recorded(inner: ClientTransport): Recorded {
  const sent: Record<string, unknown>[] = [];
  const received: Record<string, unknown>[] = [];
  const transport: ClientTransport = {
    start: (sink: TransportSink) =>
      inner.start({
        message: (message) => {
          if (typeof message === 'object' && message !== null) received.push(message as Record<string, unknown>);
          sink.message(message);
        },
        closed: (error) => sink.closed(error),
      }),
    send: (message: JsonRpcMessage, info?: OutboundInfo) => {
      sent.push(message as unknown as Record<string, unknown>);
      return inner.send(message, info);
    },
    negotiated: (version) => inner.negotiated?.(version),
    close: () => inner.close(),
  };
  return {
    transport,
    sent,
    received,
    methods: () => sent.map((m) => m['method']).filter((m): m is string => typeof m === 'string'),
    expectValid(revision) {
      // A response is checked as the result of the request it answers, whichever side asked:
      // a task-augmented tools/call's as CreateTaskResult, tasks/result's as the tool result it carries.
      const asked = new Map<string, Record<string, unknown>>();
      for (const m of sent) if (typeof m['method'] === 'string' && m['id'] !== undefined) asked.set(`c:${JSON.stringify(m['id'])}`, m);
      for (const m of received) if (typeof m['method'] === 'string' && m['id'] !== undefined) asked.set(`s:${JSON.stringify(m['id'])}`, m);
      const problems: string[] = [];
      const check = (m: Record<string, unknown>, who: string, request: Record<string, unknown> | undefined): void => {
        const say = (p: string): void => void problems.push(`${who} sent ${JSON.stringify(m).slice(0, 300)}: ${p}`);
        const method = m['method'] === undefined ? (request?.['method'] as string | undefined) : undefined;
        const params = request?.['params'] as Record<string, unknown> | undefined;
        // Only the server declares task-augmented requests: the client answers one normally.
        const augmented = who === 'server' && params !== undefined && typeof params['task'] === 'object';
        validateWire(m, revision, augmented ? undefined : method).forEach(say);
        if (method !== undefined && 'result' in m) {
          if (augmented) validateResult(m['result'], method, revision, { taskAugmented: true }).forEach(say);
          if (method === 'tasks/result') validateDefinition(m['result'], 'CallToolResult', revision).forEach(say);
        }
      };
      for (const m of sent) check(m, 'client', m['method'] === undefined ? asked.get(`s:${JSON.stringify(m['id'])}`) : undefined);
      for (const m of received) check(m, 'server', m['method'] === undefined ? asked.get(`c:${JSON.stringify(m['id'])}`) : undefined);
      expect(problems).toEqual([]);
    },
  };
}
