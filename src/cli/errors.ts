/**
 * Exit codes of the `mcpkit` command (docs/cli.md lists them) and the one
 * error type commands throw to end with a message and a code.
 */
export const Exit = {
  /** Success. */
  OK: 0,
  /** `call`: the tool answered with `isError: true`. */
  TOOL_ERROR: 1,
  /** Bad command line: unknown command or option, missing argument, value that does not fit the schema. */
  USAGE: 2,
  /** The server answered with a JSON-RPC error, or something that is not MCP. */
  PROTOCOL: 3,
  /** The server could not be reached: the entry failed to start, exited, or the URL refused the connection. */
  UNREACHABLE: 4,
  /** Anything else: a file could not be written, `npm install` failed, this Node cannot run the entry. */
  FAILURE: 5,
} as const;

export type ExitCode = (typeof Exit)[keyof typeof Exit];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usage = (message: string): CliError => new CliError(message, Exit.USAGE);
