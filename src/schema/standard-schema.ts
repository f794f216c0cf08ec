/**
 * Standard Schema V1 (https://standardschema.dev) and Standard JSON Schema V1,
 * written out by hand so mcpkit depends on no schema library at runtime or in
 * its published types. zod ≥ 4, valibot ≥ 1 and arktype ≥ 2 all satisfy
 * `StandardSchemaV1` structurally.
 */

/** Options a Standard JSON Schema converter accepts. */
export interface StandardJsonSchemaOptions {
  /** `"draft-2020-12"`, `"draft-07"`, `"openapi-3.0"` or a vendor-specific string. */
  readonly target: string;
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/**
 * Standard JSON Schema V1 converter (zod ≥ 4.2, arktype ≥ 2.1.2,
 * valibot through `toStandardJsonSchema` from `@valibot/to-json-schema`).
 * Either method may throw when the schema has no JSON Schema equivalent.
 */
export interface StandardJsonSchemaConverter {
  input(options: StandardJsonSchemaOptions): Record<string, unknown>;
  output(options: StandardJsonSchemaOptions): Record<string, unknown>;
}

/** A path segment of a Standard Schema issue: a key, or an object holding one. */
export interface StandardPathSegment {
  readonly key: PropertyKey;
}

export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | StandardPathSegment> | undefined;
}

export interface StandardSuccess<Output> {
  readonly value: Output;
  readonly issues?: undefined;
}

export interface StandardFailure {
  readonly issues: ReadonlyArray<StandardIssue>;
}

export type StandardResult<Output> = StandardSuccess<Output> | StandardFailure;

export interface StandardTypes<Input, Output> {
  readonly input: Input;
  readonly output: Output;
}

export interface StandardSchemaV1Props<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  readonly types?: StandardTypes<Input, Output> | undefined;
  /** Present when the schema also implements Standard JSON Schema V1. */
  readonly jsonSchema?: StandardJsonSchemaConverter | undefined;
}

/** Any Standard Schema V1 validator (zod, valibot, arktype, effect/schema, …). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1Props<Input, Output>;
}

/** True for an object or function carrying a Standard Schema V1 `~standard` property (arktype types are functions). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return false;
  const props = (value as { readonly '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { readonly version?: unknown }).version === 1 &&
    typeof (props as { readonly validate?: unknown }).validate === 'function'
  );
}
