/** A document mcpkit/openapi cannot use, or an option it refuses: the message says where and what to change. */
export class OpenApiError extends Error {
  override readonly name = 'OpenApiError';
  constructor(
    message: string,
    /** Where in the document (a JSON pointer such as `#/paths/~1pets/get`), when the problem is in it. */
    readonly at?: string,
    options?: ErrorOptions,
  ) {
    super(at === undefined ? message : `${message} (at ${at})`, options);
  }
}
