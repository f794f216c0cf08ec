/** A JSON-RPC error the server answered to a test client's request (or no answer at all: code 0). */
export class TestClientError extends Error {
  override readonly name = 'TestClientError';
  constructor(
    readonly method: string,
    readonly code: number,
    /** The server's error message, unprefixed. */
    readonly detail: string,
    readonly data?: unknown,
  ) {
    super(`${method} failed with ${code}: ${detail}`);
  }
}
