/**
 * A one-connection message transport that `McpServer.connect()` drives (stdio,
 * or any duplex stream of whole messages): it delivers parsed payloads (single
 * messages or batches) and writes whatever it is given; the server owns the one
 * connection behind it. HTTP is the other way round: the engine owns many
 * connections and opens them through a `ConnectionFactory` (docs/architecture.md).
 */
export interface McpTransport {
  readonly name: string;
  start(onMessage: (message: unknown) => void | Promise<void>, onError?: (error: Error) => void | Promise<void>): void | Promise<void>;
  send(message: unknown): void | Promise<void>;
  close(): void | Promise<void>;
  /** Called once when the transport ends on its own (e.g. stdin reached EOF). */
  onclose?: (() => void) | undefined;
}
