/**
 * Raw JSON Schema: advertised as the very object the user gave, validated by
 * @cfworker/json-schema (no code generation, so it runs where `new Function`
 * is banned: Cloudflare Workers, Deno Deploy).
 *
 * cfworker annotates the schema it is given (non-enumerable `__absolute_uri__`
 * / `__absolute_ref__` properties, which throws on a frozen schema and leaks
 * state between schemas sharing a sub-object), so the validator works on a
 * private deep copy and the user's object is never touched.
 *
 * Known cfworker limits: `$dynamicRef`/`$dynamicAnchor` are ignored (use
 * `$ref`), `default` is not applied, unknown `format`s pass.
 */
import { dereference, validate as cfValidate } from '@cfworker/json-schema';
import type { Schema } from '@cfworker/json-schema';
import { SchemaConversionError } from './errors.js';
import { fastAcceptor } from './fast-path.js';
import { formatIssues, issuesFromUnits, pointerSegments } from './issues.js';
import type { CompiledSchema, JsonSchemaDraft, JsonSchemaObject, ValidationIssue, ValidationResult } from './types.js';

type Lookup = Record<string, Schema | boolean | undefined>;

// cfworker's Validator class is `dereference` + `validate`; calling them
// directly keeps the lookup table, which the error messages need.

const cache = new WeakMap<object, CompiledSchema<Record<string, unknown>>>();

/** Compiles (once per schema object) a raw JSON Schema. */
export function compileJsonSchema(schema: JsonSchemaObject): CompiledSchema<Record<string, unknown>> {
  let compiled = cache.get(schema);
  if (compiled === undefined) {
    compiled = build(schema);
    cache.set(schema, compiled);
  }
  return compiled;
}

/** The cfworker draft for a `$schema` URI; draft 2020-12 when absent or unknown. */
export function draftOf(schema: JsonSchemaObject): JsonSchemaDraft {
  const uri = schema['$schema'];
  if (typeof uri !== 'string') return '2020-12';
  if (uri.includes('2019-09')) return '2019-09';
  if (/draft-0?[67]\b/.test(uri)) return '7';
  if (/draft-0?[34]\b/.test(uri)) return '4';
  return '2020-12';
}

export function failure(issues: readonly ValidationIssue[]): ValidationResult<never> {
  return { ok: false, issues, message: formatIssues(issues) };
}

function build(schema: JsonSchemaObject): CompiledSchema<Record<string, unknown>> {
  checkKeywords(schema, '#');
  const trivial = trivialKind(schema);
  if (trivial === 'any') {
    return { jsonSchema: schema, validate: (value) => ({ ok: true, value: value as Record<string, unknown> }) };
  }
  if (trivial === 'object') {
    return {
      jsonSchema: schema,
      validate: (value) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? { ok: true, value: value as Record<string, unknown> }
          : failure([{ path: [], message: `must be object (got ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})` }]),
    };
  }

  const root = copy(schema, new Set()) as Schema;
  const draft = draftOf(schema);
  let lookup: Record<string, Schema | boolean>;
  try {
    lookup = dereference(root);
  } catch (error) {
    throw new SchemaConversionError(`Invalid JSON Schema: ${describe(error)}`, { cause: error });
  }
  check(root, lookup, '#');

  const keywordValue = (keywordLocation: string): unknown => {
    let current: unknown = root;
    for (const segment of pointerSegments(keywordLocation)) {
      if (typeof current !== 'object' || current === null) return undefined;
      const absoluteRef = (current as Schema).__absolute_ref__;
      current =
        segment === '$ref' && typeof absoluteRef === 'string'
          ? (lookup as Lookup)[absoluteRef]
          : (current as Record<string, unknown>)[segment];
    }
    return current;
  };

  const accept = fastAcceptor(schema);
  return {
    jsonSchema: schema,
    validate(value) {
      if (accept?.(value) === true) return { ok: true, value: value as Record<string, unknown> };
      let result;
      try {
        result = cfValidate(value, root, draft, lookup, false);
      } catch (error) {
        // cfworker throws on non-JSON instances (undefined, bigint, functions) and lone-surrogate keys.
        const unsupported = /^Instances of "(\w+)" type are not supported/.exec(describe(error))?.[1];
        const message = unsupported === undefined ? `could not be validated (${describe(error)})` : `must be a JSON value (got ${unsupported})`;
        return failure([{ path: [], message }]);
      }
      if (result.valid) return { ok: true, value: value as Record<string, unknown> };
      return failure(issuesFromUnits(result.errors, { instance: value, keywordValue }));
    },
  };
}

const ANNOTATIONS = new Set([
  '$schema', '$comment', '$defs', 'definitions', 'title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly',
]);

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/**
 * `'object'` for `{ type: 'object' }` with nothing that constrains the value
 * (only annotations, empty `properties`/`required`, `additionalProperties: true`,
 * unreferenced `$defs`); `'any'` for the same without `type`; else false.
 */
function trivialKind(schema: JsonSchemaObject): 'any' | 'object' | false {
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (key === 'type' ? value === 'object' : ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if ((key === 'properties' || key === 'patternProperties') && isEmptyObject(value)) continue;
    if (key === 'required' && Array.isArray(value) && value.length === 0) continue;
    if ((key === 'additionalProperties' || key === 'unevaluatedProperties') && (value === true || isEmptyObject(value))) continue;
    return false;
  }
  return schema['type'] === 'object' ? 'object' : 'any';
}

/** A deep copy of the JSON data (own enumerable keys); rejects cycles. */
function copy(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) throw new SchemaConversionError('Invalid JSON Schema: it contains a cycle; use "$ref" for recursion');
  ancestors.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((item) => copy(item, ancestors));
  } else {
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // defineProperty, not assignment: a "__proto__" key must stay a key.
      Object.defineProperty(object, key, {
        value: copy((value as Record<string, unknown>)[key], ancestors),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out = object;
  }
  ancestors.delete(value);
  return out;
}

const SUBSCHEMA = ['additionalItems', 'unevaluatedItems', 'items', 'contains', 'additionalProperties', 'unevaluatedProperties', 'propertyNames', 'not', 'if', 'then', 'else'];
const SUBSCHEMA_LIST = ['prefixItems', 'items', 'allOf', 'anyOf', 'oneOf'];
const SUBSCHEMA_MAP = ['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas', 'dependencies'];

/**
 * Registration-time checks for what cfworker would only report by throwing
 * on every call: unresolvable `$ref`s and patterns that are not valid
 * Unicode regular expressions.
 */
function check(schema: unknown, lookup: Lookup, at: string): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  checkKeywords(schema as Record<string, unknown>, at);
  const s = schema as Schema;
  if (typeof s.$ref === 'string' && (s.__absolute_ref__ === undefined || lookup[s.__absolute_ref__] === undefined)) {
    throw new SchemaConversionError(`Invalid JSON Schema: unresolvable $ref "${s.$ref}" at ${at}`);
  }
  const patterns = [...(typeof s.pattern === 'string' ? [s.pattern] : []), ...Object.keys(s.patternProperties ?? {})];
  for (const pattern of patterns) {
    try {
      new RegExp(pattern, 'u');
    } catch (error) {
      throw new SchemaConversionError(`Invalid JSON Schema: pattern /${pattern}/ at ${at}: ${describe(error)}`, { cause: error });
    }
  }
  for (const key of SUBSCHEMA) check(s[key], lookup, `${at}/${key}`);
  for (const key of SUBSCHEMA_LIST) {
    const list: unknown = s[key];
    if (Array.isArray(list)) list.forEach((item, i) => check(item, lookup, `${at}/${key}/${i}`));
  }
  for (const key of SUBSCHEMA_MAP) {
    const map: unknown = s[key];
    if (typeof map === 'object' && map !== null) {
      for (const [name, sub] of Object.entries(map)) check(sub, lookup, `${at}/${key}/${name}`);
    }
  }
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const isSchema = (v: unknown): boolean => typeof v === 'boolean' || (typeof v === 'object' && v !== null && !Array.isArray(v));
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const isType = (v: unknown): boolean => typeof v === 'string' && TYPES.includes(v);

/** What each checked keyword's value must be: a test and the words for the error. */
const KEYWORDS: Record<string, [(v: unknown) => boolean, string]> = {
  type: [(v) => isType(v) || (Array.isArray(v) && v.length > 0 && v.every(isType)), `one of ${TYPES.map((t) => `"${t}"`).join(', ')}, or a non-empty array of them`],
  required: [(v) => Array.isArray(v) && v.every((k) => typeof k === 'string'), 'an array of property names (strings)'],
  enum: [Array.isArray, 'an array of the allowed values'],
  items: [(v) => isSchema(v) || (Array.isArray(v) && v.every(isSchema)), 'a schema (an object or a boolean)'],
  ...Object.fromEntries(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'].map((k) => [
    k, [(v: unknown) => isSchema(v) && typeof v !== 'boolean' && Object.values(v as object).every(isSchema), 'an object whose values are schemas'],
  ])),
  ...Object.fromEntries(['prefixItems', 'allOf', 'anyOf', 'oneOf'].map((k) => [k, [(v: unknown) => Array.isArray(v) && v.length > 0 && v.every(isSchema), 'a non-empty array of schemas']])),
  ...Object.fromEntries(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'].map((k) => [k, [isSchema, 'a schema (an object or a boolean)']])),
  ...Object.fromEntries(['minimum', 'maximum'].map((k) => [k, [(v: unknown) => typeof v === 'number' && Number.isFinite(v), 'a number']])),
  // Draft 4 wrote exclusiveMinimum/Maximum as booleans.
  ...Object.fromEntries(['exclusiveMinimum', 'exclusiveMaximum'].map((k) => [k, [(v: unknown) => typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)), 'a number']])),
  multipleOf: [(v) => typeof v === 'number' && v > 0 && Number.isFinite(v), 'a number greater than 0'],
  ...Object.fromEntries(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'].map((k) => [k, [isCount, 'a non-negative integer']])),
  ...Object.fromEntries(['pattern', 'format', '$ref', '$id', '$anchor', '$schema', 'title', 'description', '$comment'].map((k) => [k, [(v: unknown) => typeof v === 'string', 'a string']])),
  ...Object.fromEntries(['uniqueItems', 'deprecated', 'readOnly', 'writeOnly'].map((k) => [k, [(v: unknown) => typeof v === 'boolean', 'true or false']])),
};

/** Registration-time check of the keywords' own shapes: `{ type: 'nope' }` is refused here, not ignored on every call. */
function checkKeywords(s: Record<string, unknown>, at: string): void {
  for (const key of Object.keys(s)) {
    const rule = Object.hasOwn(KEYWORDS, key) ? KEYWORDS[key] : undefined;
    if (rule === undefined || rule[0](s[key])) continue;
    throw new SchemaConversionError(`Invalid JSON Schema: "${key}" at ${at} must be ${rule[1]} (got ${preview(s[key])})`);
  }
}

function preview(value: unknown): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
