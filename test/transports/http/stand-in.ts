/**
 * A small hand-written ConnectionFactory: the engine's unit-test stand-in for
 * McpServer, for what the real server cannot be made to do on purpose (record
 * every MessageExtra, reject, close a stream before any message).
 */
import { classify, type JsonRpcResponse } from '../../../src/jsonrpc/message.js';
import type { ConnectionFactory, ConnectionOptions, HandleResult, McpConnection, MessageExtra } from '../../../src/protocol/connection.js';
import { Gates } from './fixtures.js';

export interface OpenedConnection {
  options: ConnectionOptions | undefined;
  closed: string | undefined;
  extras: MessageExtra[];
}

/**
 * Answers initialize and tools/call. Tools: echo; early-close (closeStream
 * before any message, then waits for gate "early"); notify (a message on the
 * connection's own sink); reject (handleMessage rejects).
 */
export class StandInFactory implements ConnectionFactory {
  readonly opened: OpenedConnection[] = [];
  readonly gates = new Gates();

  openConnection(options?: ConnectionOptions): McpConnection {
    const record: OpenedConnection = { options, closed: undefined, extras: [] };
    this.opened.push(record);
    const gates = this.gates;

    const handleOne = async (value: unknown, extra: MessageExtra): Promise<JsonRpcResponse | undefined> => {
      const c = classify(value);
      if (c.kind !== 'request') return c.kind === 'invalid' ? { jsonrpc: '2.0', id: c.id, error: { code: -32600, message: c.reason } } : undefined;
      const { id, method } = c.message;
      const params = (c.message.params ?? {}) as Record<string, unknown>;
      const text = (t: string): JsonRpcResponse => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: t }] } });
      if (method === 'initialize') {
        return { jsonrpc: '2.0', id, result: { protocolVersion: params['protocolVersion'], capabilities: {}, serverInfo: { name: 'stand-in', version: '1.0.0' } } };
      }
      if (method !== 'tools/call') return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } };
      switch (params['name']) {
        case 'echo':
          return text('echo');
        case 'early-close':
          extra.closeStream?.({ retryMs: 5 });
          if (!(await gates.wait('early', extra.signal ?? new AbortController().signal))) return undefined;
          return text('late result');
        case 'notify':
          await options?.send?.({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
          return text('notified');
        case 'reject':
          throw new Error('secret internals at /srv/db');
        default:
          return { jsonrpc: '2.0', id, error: { code: -32602, message: 'Unknown tool' } };
      }
    };

    return {
      async handleMessage(payload: unknown, extra: MessageExtra = {}): Promise<HandleResult> {
        record.extras.push(extra);
        return handleOne(payload, extra);
      },
      close(reason?: string) {
        record.closed = reason ?? 'closed';
      },
    };
  }
}
