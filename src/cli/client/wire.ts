import { CliError, Exit } from '../errors.js';

export type Json = Record<string, unknown>;

/** One way to exchange JSON-RPC messages with a server: a spawned stdio process or an HTTP endpoint. */
export interface Wire {
  /** Sends one message; what the server sends back (responses, notifications, requests) reaches `onMessage`. */
  send(message: Json, headers?: Record<string, string>): Promise<void>;
  onMessage: (message: Json) => void;
  /** Fails every pending request: the server went away. */
  onClose: (error: CliError) => void;
  /** The revision to name in HTTP headers (stdio ignores it). */
  protocolVersion: string | undefined;
  close(): Promise<void>;
}

/** The server answered a request with a JSON-RPC error. */
export class RpcError extends CliError {
  constructor(
    readonly code: number,
    readonly rpcMessage: string,
    readonly data: unknown,
  ) {
    super(`error ${code}: ${rpcMessage}${data === undefined ? '' : `\n${JSON.stringify(data, null, 2)}`}`, Exit.PROTOCOL);
  }
}

export const unreachable = (message: string): CliError => new CliError(message, Exit.UNREACHABLE);
export const notMcp = (message: string): CliError => new CliError(message, Exit.PROTOCOL);
