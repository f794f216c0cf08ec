/** What the client asks of a transport: move JSON-RPC messages, report when the peer is gone. */
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import type { AbortSignalLike } from '../protocol/connection.js';
import type { TransportPeer } from '../protocol/observability/outbound.js';

export type { TransportPeer };

/** What a send that needs no waiting answers: one settled promise for all, which the client need not watch. */
export const SENT: Promise<void> = Promise.resolve();

export interface TransportSink {
  /** A message from the server (any shape: the client checks it). */
  message(message: unknown): void;
  /** The transport closed; `error` says why when it was not asked to. */
  closed(error?: Error): void;
}

/** Per-message facts an HTTP transport turns into headers or stream handling. */
export interface OutboundInfo {
  /** `MCP-Protocol-Version` (HTTP). */
  protocolVersion?: string | undefined;
  /** Routing headers (2026-07-28: `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`). */
  headers?: Record<string, string> | undefined;
  /** Aborting ends this message's response stream (2026-07-28 cancellation over HTTP). */
  signal?: AbortSignal | undefined;
  /**
   * The same abort as `signal`, without an AbortSignal made for it (one per request is a measurable
   * share of a call). The client sets both; setting `signal` on its info sets this too. On an info a
   * transport in front built (`{ ...info, signal }`), its own `signal` wins: mcpkit's transports read
   * the two through one rule (`outboundAbort`, client/abort.ts).
   */
  abort?: AbortSignalLike | undefined;
}

export interface ClientTransport {
  /** False when the transport reads no `OutboundInfo` (stdio): the client then builds none per message. */
  readonly readsOutboundInfo?: boolean;
  start(sink: TransportSink): Promise<void>;
  /** Sends one message; rejects with `McpTransportError` when it cannot be delivered. */
  send(message: JsonRpcMessage, info?: OutboundInfo): Promise<void>;
  /** The legacy handshake finished: HTTP opens its GET stream here. */
  negotiated?(protocolVersion: string): void;
  close(): Promise<void>;
  /** Where the server is, for observability (`network.transport`, `server.address`/`port`, `mcp.session.id`); asked only when someone subscribes. */
  peer?(): TransportPeer;
}
