/**
 * The schema layer: tool input/output schemas as any Standard Schema
 * (zod 4, valibot, arktype, … — none a dependency of mcpkit) or a raw JSON
 * Schema object, compiled once at registration into the JSON Schema that is
 * advertised and a validator whose errors a model can act on.
 */
export { compileSchema, withJsonSchema } from './compile.js';
export type { CompileOptions } from './compile.js';
export { SchemaConversionError } from './errors.js';
export { formatIssues } from './issues.js';
export { isStandardSchema } from './standard-schema.js';
export type {
  StandardFailure,
  StandardIssue,
  StandardJsonSchemaConverter,
  StandardJsonSchemaOptions,
  StandardPathSegment,
  StandardResult,
  StandardSchemaV1,
  StandardSchemaV1Props,
  StandardSuccess,
  StandardTypes,
} from './standard-schema.js';
export type {
  CompiledSchema,
  InferInput,
  InferOutput,
  JsonSchemaObject,
  SchemaInput,
  ValidationIssue,
  ValidationResult,
} from './types.js';
