/**
 * A fast acceptance check for the most common tool schema: an object whose
 * properties are primitives, with `required` and optionally
 * `additionalProperties: false`. When the check passes the value is valid;
 * when it fails (or the schema has anything else) the full validator runs, so
 * error messages are always the full validator's.
 */
import type { JsonSchemaObject } from './types.js';
import { isPlainObject } from '../jsonrpc/message.js';

type Check = (value: unknown) => boolean;

const ANNOTATION = new Set(['title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
const ROOT_EXTRA = new Set(['type', 'properties', 'required', 'additionalProperties', '$schema']);


function primitive(schema: unknown): Check | undefined {
  if (!isPlainObject(schema)) return undefined;
  for (const key of Object.keys(schema)) {
    if (key !== 'type' && !ANNOTATION.has(key) && !key.startsWith('x-')) return undefined;
  }
  switch (schema['type']) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return (v) => typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    default:
      return undefined;
  }
}

/** A predicate that implies validity, or undefined when the schema is outside the fast path. */
export function fastAcceptor(schema: JsonSchemaObject): Check | undefined {
  if (schema['type'] !== 'object') return undefined;
  const dialect = schema['$schema'];
  if (dialect !== undefined && dialect !== 'https://json-schema.org/draft/2020-12/schema') return undefined;
  for (const key of Object.keys(schema)) {
    if (!ROOT_EXTRA.has(key) && !ANNOTATION.has(key) && !key.startsWith('x-')) return undefined;
  }
  const properties = schema['properties'] ?? {};
  const required = schema['required'] ?? [];
  const additional = schema['additionalProperties'];
  if (!isPlainObject(properties) || !Array.isArray(required) || !required.every((r) => typeof r === 'string')) return undefined;
  if (additional !== undefined && typeof additional !== 'boolean') return undefined;
  const names = Object.keys(properties);
  const checks: Check[] = [];
  for (const name of names) {
    const check = primitive(properties[name]);
    if (check === undefined) return undefined;
    checks.push(check);
  }
  const mustHave = required;
  const closed = additional === false;
  const known = new Set(names);
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (const name of mustHave) if (!Object.prototype.hasOwnProperty.call(value, name)) return false;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (Object.prototype.hasOwnProperty.call(value, name) && !checks[i]!(value[name])) return false;
    }
    if (closed) for (const key in value) if (!known.has(key)) return false;
    return true;
  };
}
