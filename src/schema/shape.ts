/**
 * Raw shapes — `{ city: z.string(), days: z.number().optional() }`, the
 * official SDK's style — as an object schema: each property validated by its
 * own Standard Schema, the JSON Schema advertised as
 * `{ type: 'object', properties, required }`, unknown keys dropped (as
 * `z.object(shape)` does).
 */
import { SchemaConversionError } from './errors.js';
import { failure } from './json-schema.js';
import { isStandardSchema, type StandardSchemaV1 } from './standard-schema.js';
import type { CompiledSchema, JsonSchemaObject, ValidationIssue, ValidationResult } from './types.js';

export type RawShape = Readonly<Record<string, StandardSchemaV1>>;

/** A plain object (not itself a schema) with at least one Standard Schema value. */
export function isRawShape(value: unknown): value is RawShape {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isStandardSchema(value)) return false;
  return Object.values(value).some(isStandardSchema);
}

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Combines compiled members (compiled by compileSchema, one per key) into one object schema. */
export function compileShape(shape: RawShape, members: Readonly<Record<string, CompiledSchema>>): CompiledSchema<Record<string, unknown>> {
  const keys = Object.keys(shape);
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  for (const key of keys) {
    const member = members[key]!;
    const { jsonSchema } = member;
    if (JSON.stringify(jsonSchema).includes('"$ref"')) {
      throw new SchemaConversionError(
        `The raw shape's property "${key}" converts to a JSON Schema with $ref, which cannot be nested in a shape; ` +
          'pass one object schema instead, e.g. input: z.object({ ... })',
      );
    }
    const { $schema: _ignored, ...property } = jsonSchema;
    properties[key] = property;
    // A member that accepts undefined is optional (z.string().optional(), .default(…)); async ones count as required.
    const empty = member.validate(undefined);
    if (!('then' in empty) && !empty.ok) required.push(key);
  }
  const jsonSchema: JsonSchemaObject = { type: 'object', properties, ...(required.length > 0 && { required }) };

  const settle = (results: readonly ValidationResult<unknown>[]): ValidationResult<Record<string, unknown>> => {
    const issues: ValidationIssue[] = [];
    const value: Record<string, unknown> = {};
    results.forEach((result, i) => {
      const key = keys[i]!;
      if (!result.ok) issues.push(...result.issues.map((issue) => ({ path: [key, ...issue.path], message: issue.message })));
      else if (result.value !== undefined) Object.defineProperty(value, key, { value: result.value, enumerable: true, writable: true, configurable: true });
    });
    return issues.length > 0 ? failure(issues) : { ok: true, value };
  };
  return {
    jsonSchema,
    validate(input) {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return failure([{ path: [], message: `must be object (got ${kindOf(input)})` }]);
      const args = input as Record<string, unknown>;
      const results = keys.map((key) => members[key]!.validate(Object.hasOwn(args, key) ? args[key] : undefined));
      if (results.every((r): r is ValidationResult<unknown> => !('then' in r))) return settle(results);
      return Promise.all(results.map(async (r) => r)).then(settle);
    },
  };
}

/** The shape's values, checked: every one must be a Standard Schema. */
export function shapeMembers(shape: Readonly<Record<string, unknown>>): [string, StandardSchemaV1][] {
  return Object.entries(shape).map(([key, member]) => {
    if (!isStandardSchema(member)) {
      throw new SchemaConversionError(
        `A raw shape's values must all be Standard Schemas (zod, valibot, arktype, …), but "${key}" is ${kindOf(member)}; ` +
          'write every property as a schema, or pass one object schema (z.object({ ... }) or a JSON Schema object)',
      );
    }
    return [key, member];
  });
}
