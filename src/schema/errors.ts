/**
 * Thrown at registration time (by `compileSchema`) when a schema cannot be
 * advertised or validated: a Standard Schema with no JSON Schema conversion
 * (or whose conversion throws, e.g. a zod `z.date()`), or a raw JSON Schema
 * that cannot be compiled (a cycle, an unresolvable local `$ref`, an invalid
 * `pattern`).
 */
export class SchemaConversionError extends Error {
  override readonly name = 'SchemaConversionError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
