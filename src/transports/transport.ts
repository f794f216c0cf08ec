/**
 * The transport contract of the first seed: a transport delivers parsed
 * payloads (single messages or batches) and writes whatever it is given.
 */
export interface McpTransport {
  readonly name: string;
  start(onMessage: (message: unknown) => void | Promise<void>, onError?: (error: Error) => void | Promise<void>): void | Promise<void>;
  send(message: unknown): void | Promise<void>;
  close(): void | Promise<void>;
  /** Called once when the transport ends on its own (e.g. stdin reached EOF). */
  onclose?: (() => void) | undefined;
}
