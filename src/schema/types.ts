import type { StandardSchemaV1 } from './standard-schema.js';

/** A raw JSON Schema object, advertised exactly as given. */
export type JsonSchemaObject = { readonly [key: string]: unknown };

/** What a tool accepts as an input or output schema. */
export type SchemaInput = StandardSchemaV1 | JsonSchemaObject;

/*
 * The inference helpers are deliberately shallow: one conditional on the
 * `~standard.types` slot, no recursion, so a deep user schema never costs
 * more than the library's own `z.infer` / `typeof T.infer` and never hits
 * TS2589 ("type instantiation is excessively deep").
 */

/** A record of Standard Schemas (`{ city: z.string() }`), for inference only. */
type ShapeLike = { readonly [key: string]: { readonly '~standard': unknown } };

/** The handler's argument type: the Standard Schema's output type, a raw shape's per key, or `Record<string, unknown>` for raw JSON Schema. */
export type InferOutput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O }
    ? O
    : unknown
  : S extends ShapeLike
    ? { [K in keyof S]: InferOutput<S[K]> }
    : Record<string, unknown>;

/** The type callers send: the Standard Schema's input type, or `Record<string, unknown>` for raw JSON Schema. */
export type InferInput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly input: infer I }
    ? I
    : unknown
  : Record<string, unknown>;

export interface ValidationIssue {
  /** Where in the value the problem is: object keys and array indices. */
  readonly path: readonly (string | number)[];
  /** What was expected, e.g. `must be string (got number)` or the vendor's own message. */
  readonly message: string;
}

export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly issues: readonly ValidationIssue[];
      /** One line a model can act on: `Invalid arguments: "address.city" must be string (got number); "email" is required`. */
      readonly message: string;
    };

export interface CompiledSchema<T = unknown> {
  /**
   * The JSON Schema advertised on the wire. For a raw JSON Schema: the same
   * object the user gave (identity), never rewritten or normalised. For a
   * Standard Schema: the vendor's conversion, computed once.
   */
  readonly jsonSchema: JsonSchemaObject;
  /**
   * Raw JSON Schema: synchronous, never throws (non-JSON input becomes an
   * issue). Standard Schema: sync or async as the vendor decides; exceptions
   * thrown by user code inside it (refinements, transforms) propagate.
   */
  validate(value: unknown): ValidationResult<T> | Promise<ValidationResult<T>>;
}

/** The JSON Schema drafts the validator knows (declared here so no emitted type names the inlined validator's package). */
export type JsonSchemaDraft = '4' | '7' | '2019-09' | '2020-12';

/** One failure the validator reports, in the shape it reports it. */
export interface ValidatorUnit {
  readonly keyword: string;
  readonly keywordLocation: string;
  readonly instanceLocation: string;
  readonly error: string;
}
