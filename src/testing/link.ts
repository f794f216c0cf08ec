/**
 * The test client's transport: hands a `Client`'s messages to the server's connection in this process,
 * through the wire encoding (what cannot be serialised fails as it would on stdio or HTTP), and records
 * every message the server sends for the test to look at.
 */
import type { ClientTransport, TransportSink } from '../client/transport.js';
import { isPlainObject, type JsonRpcId, type JsonRpcMessage } from '../jsonrpc/message.js';
import { encodeBatch, encodeMessage } from '../jsonrpc/serialize.js';
import type { HandleResult, McpConnection, MessageExtra } from '../protocol/connection.js';

type Json = Record<string, unknown>;

/** A private `_meta` key that ties each request the client sends to the test's call (stripped before the server sees it). */
export const CALL_KEY = 'mcpkit.testing/call';

/** What the test client keeps about one call while it runs. */
export interface CallState {
  /** The id of the request last sent for it (a 2026-07-28 call may be retried with input). */
  id?: JsonRpcId;
  /** Protocol fields of `_meta` the test gave; they win over the client's own. */
  meta: Json;
  aborted: boolean;
}

export interface LinkHost {
  readonly connection: McpConnection;
  extra(): MessageExtra;
  /** A message the server sent (a response names the method it answers). */
  record(message: JsonRpcMessage, answers?: string): void;
  calls: Map<number, CallState>;
  /** Work the test's `settled()` waits for (the client's answers to the server). */
  track(work: Promise<unknown>): void;
}

export class LinkedTransport implements ClientTransport {
  #sink: TransportSink | undefined;
  readonly #host: LinkHost;

  constructor(host: LinkHost) {
    this.#host = host;
  }

  async start(sink: TransportSink): Promise<void> {
    this.#sink = sink;
  }

  /** A server message outside a response: a notification or a server→client request. */
  deliver(message: JsonRpcMessage): void {
    this.#sink?.message(message);
  }

  async send(message: JsonRpcMessage): Promise<void> {
    const outgoing = JSON.parse(JSON.stringify(message)) as Json; // as a wire would: undefined fields vanish
    const host = this.#host;
    if (!('method' in outgoing) || !('id' in outgoing)) {
      // The client's answer to a server request, or a notification.
      host.track(Promise.resolve(host.connection.handleMessage(outgoing, host.extra())));
      return;
    }
    const id = outgoing['id'] as JsonRpcId;
    const method = String(outgoing['method']);
    const call = this.#claim(outgoing, id);
    // The answer comes later: the client must not wait for it here (it may need to answer the server first).
    void Promise.resolve()
      .then(() => host.connection.handleMessage(outgoing, host.extra()))
      .then((answered: HandleResult) => {
        if (answered === undefined) {
          const why = call?.aborted === true ? 'The request was cancelled and got no response' : 'The server sent no response';
          this.#sink?.message({ jsonrpc: '2.0', id, error: { code: 0, message: why } });
          return;
        }
        // A result a transport cannot serialise (a BigInt, a cycle) is -32603 there, so it is here.
        const decoded = JSON.parse(Array.isArray(answered) ? encodeBatch(answered) : encodeMessage(answered)) as JsonRpcMessage | JsonRpcMessage[];
        for (const response of Array.isArray(decoded) ? decoded : [decoded]) {
          host.record(response, method);
          this.#sink?.message(response);
        }
      })
      .catch((error: unknown) => this.#sink?.closed(error instanceof Error ? error : new Error(String(error))));
  }

  async close(): Promise<void> {
    this.#sink = undefined;
  }

  /** Takes the call marker out of `_meta`, puts back the test's own protocol fields, and notes the id. */
  #claim(message: Json, id: JsonRpcId): CallState | undefined {
    const params = message['params'];
    if (!isPlainObject(params) || !isPlainObject(params['_meta'])) return undefined;
    const meta = params['_meta'];
    const key = meta[CALL_KEY];
    delete meta[CALL_KEY];
    const call = typeof key === 'number' ? this.#host.calls.get(key) : undefined;
    if (call !== undefined) {
      Object.assign(meta, call.meta);
      call.id = id;
    }
    if (Object.keys(meta).length === 0) delete params['_meta'];
    return call;
  }
}
