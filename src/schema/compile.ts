import { isThenable } from '../util/thenable.js';
import { SchemaConversionError } from './errors.js';
import { formatIssues, issuesFromStandard } from './issues.js';
import { compileJsonSchema } from './json-schema.js';
import { compileShape, isRawShape, shapeMembers } from './shape.js';
import { isStandardSchema } from './standard-schema.js';
import type { StandardResult, StandardSchemaV1, StandardSchemaV1Props } from './standard-schema.js';
import type { CompiledSchema, InferInput, InferOutput, JsonSchemaObject, SchemaInput, ValidationResult } from './types.js';

export interface CompileOptions {
  /**
   * Which side of a Standard Schema to advertise: `'input'` (default; what
   * callers send, right for tool input schemas) or `'output'` (the parsed
   * type, after transforms and defaults). Ignored for raw JSON Schema.
   */
  readonly io?: 'input' | 'output';
}

const TARGET = 'draft-2020-12';
const inputCache = new WeakMap<object, CompiledSchema>();
const outputCache = new WeakMap<object, CompiledSchema>();

/**
 * Compiles a tool schema once, at registration: a Standard Schema (zod,
 * valibot, arktype, …), a raw shape of Standard Schemas (`{ city: z.string() }`,
 * see shape.ts) or a raw JSON Schema object. Compiling the same
 * object again returns the same CompiledSchema.
 *
 * @throws SchemaConversionError when no JSON Schema can be produced for a
 *   Standard Schema, or a raw JSON Schema cannot be compiled.
 */
export function compileSchema<S extends SchemaInput>(schema: S, options?: CompileOptions): CompiledSchema<InferOutput<S>> {
  if (isRawShape(schema)) {
    const io = options?.io ?? 'input';
    const cache = io === 'input' ? inputCache : outputCache;
    let compiled = cache.get(schema);
    if (compiled === undefined) {
      const members = Object.fromEntries(shapeMembers(schema).map(([key, member]) => [key, compileSchema(member, { io })]));
      compiled = compileShape(schema, members);
      cache.set(schema, compiled);
    }
    return compiled as CompiledSchema<InferOutput<S>>;
  }
  if (!isStandardSchema(schema)) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new SchemaConversionError('A schema must be a Standard Schema (zod, valibot, arktype, …) or a JSON Schema object');
    }
    return compileJsonSchema(schema) as CompiledSchema<InferOutput<S>>;
  }
  const io = options?.io ?? 'input';
  const cache = io === 'input' ? inputCache : outputCache;
  let compiled = cache.get(schema);
  if (compiled === undefined) {
    compiled = compileStandard(schema, io);
    cache.set(schema, compiled);
  }
  return compiled as CompiledSchema<InferOutput<S>>;
}

function compileStandard(schema: StandardSchemaV1, io: 'input' | 'output'): CompiledSchema {
  const props = schema['~standard'];
  const jsonSchema = toJsonSchema(schema, io);
  const settle = (result: StandardResult<unknown>): ValidationResult<unknown> => {
    if (result.issues === undefined) return { ok: true, value: result.value };
    const issues = issuesFromStandard(result.issues);
    return { ok: false, issues, message: formatIssues(issues) };
  };
  return {
    jsonSchema,
    validate(value) {
      // Called as a method: some vendors' validate reads `this`.
      const result = props.validate(value);
      return isThenable(result) ? Promise.resolve(result).then(settle) : settle(result);
    },
  };
}

function toJsonSchema(schema: StandardSchemaV1, io: 'input' | 'output'): JsonSchemaObject {
  const props = schema['~standard'];
  const vendor = props.vendor;
  const howToFix =
    'Use a schema library that implements Standard JSON Schema (zod >= 4.2, arktype >= 2.1.2, ' +
    'valibot via toStandardJsonSchema() from @valibot/to-json-schema), or attach one with withJsonSchema(schema, jsonSchema).';
  let convert: (() => unknown) | undefined;
  if (typeof props.jsonSchema?.[io] === 'function') {
    const converter = props.jsonSchema;
    convert = () => converter[io]({ target: TARGET });
  } else {
    // zod 4.0/4.1 predate Standard JSON Schema but have an instance method.
    const method = (schema as { readonly toJSONSchema?: unknown }).toJSONSchema;
    if (vendor === 'zod' && typeof method === 'function') {
      convert = () => (method as (this: unknown, params: object) => unknown).call(schema, { target: TARGET, io });
    }
  }
  if (convert === undefined) {
    throw new SchemaConversionError(`This ${vendor} schema cannot produce a JSON Schema for the tool listing. ${howToFix}`);
  }
  let jsonSchema: unknown;
  try {
    jsonSchema = convert();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SchemaConversionError(
      `This ${vendor} schema cannot be converted to JSON Schema (${reason}). ` +
        'Replace the unrepresentable part (dates, transforms, functions, …) with a JSON-compatible type, ' +
        'or attach a JSON Schema with withJsonSchema(schema, jsonSchema).',
      { cause: error },
    );
  }
  if (typeof jsonSchema !== 'object' || jsonSchema === null || Array.isArray(jsonSchema)) {
    throw new SchemaConversionError(`The ${vendor} JSON Schema conversion returned ${jsonSchema === null ? 'null' : typeof jsonSchema}, not an object`);
  }
  return jsonSchema as JsonSchemaObject;
}

/**
 * Attaches a JSON Schema to a Standard Schema that has none (valibot without
 * `@valibot/to-json-schema`, zod 3, effect/schema, hand-written validators),
 * or overrides the vendor's conversion. Validation still runs through the
 * schema's own `~standard.validate`; the given objects are advertised as is.
 */
export function withJsonSchema<S extends StandardSchemaV1>(
  schema: S,
  inputJsonSchema: JsonSchemaObject,
  outputJsonSchema: JsonSchemaObject = inputJsonSchema,
): StandardSchemaV1<InferInput<S>, InferOutput<S>> {
  const props = schema['~standard'];
  const wrapped: StandardSchemaV1Props<InferInput<S>, InferOutput<S>> = {
    version: 1,
    vendor: props.vendor,
    validate: (value) => props.validate(value) as StandardResult<InferOutput<S>> | Promise<StandardResult<InferOutput<S>>>,
    jsonSchema: {
      input: () => inputJsonSchema,
      output: () => outputJsonSchema,
    },
  };
  return { '~standard': wrapped };
}
