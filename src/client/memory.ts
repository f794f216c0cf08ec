/** In memory: the client talks to an `McpServer` (anything with `openConnection`) in the same process. */
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import type { AuthInfo, ConnectionFactory, HandleResult, McpConnection, MessageExtra, RequestInfo } from '../protocol/connection.js';
import { outboundAbort } from './abort.js';
import { McpTransportError } from './errors.js';
import type { ClientTransport, OutboundInfo, TransportSink } from './transport.js';

export interface InMemoryOptions {
  /** Handed to the server with every message, as an HTTP transport would after authentication. */
  authInfo?: AuthInfo;
  requestInfo?: RequestInfo;
}

export class InMemoryTransport implements ClientTransport {
  #connection: McpConnection | undefined;
  #sink: TransportSink | undefined;
  readonly #server: ConnectionFactory;
  readonly #options: InMemoryOptions;

  constructor(server: ConnectionFactory, options: InMemoryOptions = {}) {
    this.#server = server;
    this.#options = options;
  }

  async start(sink: TransportSink): Promise<void> {
    this.#sink = sink;
    this.#connection = this.#server.openConnection({ send: (message) => sink.message(message), transport: 'memory' });
  }

  async send(message: JsonRpcMessage, info: OutboundInfo = {}): Promise<void> {
    const connection = this.#connection;
    if (connection === undefined) throw new McpTransportError('closed', 'The in-memory transport is closed');
    const extra: MessageExtra = {};
    if (this.#options.authInfo !== undefined) extra.authInfo = this.#options.authInfo;
    if (this.#options.requestInfo !== undefined) extra.requestInfo = this.#options.requestInfo;
    if (info.protocolVersion !== undefined) extra.protocolVersion = info.protocolVersion;
    const abort = outboundAbort(info);
    if (abort !== undefined) extra.signal = abort;
    // The answer comes later: the client must not wait for it here (it may need to answer the server first).
    void new Promise<HandleResult>((resolve) => resolve(connection.handleMessage(message, extra))).then(
      (response: HandleResult) => {
        for (const r of response === undefined ? [] : Array.isArray(response) ? response : [response]) this.#sink?.message(r);
      },
      (error: unknown) => this.#sink?.closed(new McpTransportError('unreachable', `The server failed: ${(error as Error).message}`)),
    );
  }

  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.close('Client closed');
    this.#sink?.closed();
  }
}
