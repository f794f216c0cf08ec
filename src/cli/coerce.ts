/**
 * `key=value` arguments turned into a tool's arguments, each value coerced by
 * the type its input schema gives the key: `days=3` is the number 3 when
 * `days` is a number, the string "3" when it is a string. Dotted keys build
 * nested objects (`address.city=Paris`).
 */
import { usage } from './errors.js';
import type { Json } from './json.js';

type Schema = Json | undefined;

const typesOf = (schema: Schema): string[] => {
  const type = schema?.['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  for (const key of ['anyOf', 'oneOf']) {
    const options = schema?.[key];
    if (Array.isArray(options)) return options.flatMap((o) => typesOf(o as Json));
  }
  return [];
};

function coerceValue(path: string, raw: string, schema: Schema): unknown {
  const types = typesOf(schema);
  const fail = (expected: string) => usage(`${path}: expected ${expected}, got ${JSON.stringify(raw)}`);
  if (types.length === 0) {
    // No type to go by: JSON when it parses (numbers, booleans, objects), else the string.
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }
  if (types.includes('string') && !(raw === 'null' && types.includes('null'))) return raw;
  for (const type of types) {
    if ((type === 'number' || type === 'integer') && raw.trim() !== '' && Number.isFinite(Number(raw))) {
      const n = Number(raw);
      if (type === 'number' || Number.isInteger(n)) return n;
    }
    if (type === 'boolean' && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
    if (type === 'null' && raw === 'null') return null;
    if (type === 'object' || type === 'array') {
      try {
        const value = JSON.parse(raw) as unknown;
        if (type === 'array' ? Array.isArray(value) : value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
      } catch {
        // tried below as the next type, or reported
      }
    }
  }
  const expected = types.map((t) => (t === 'integer' ? 'an integer' : t === 'object' || t === 'array' ? `a JSON ${t}` : t === 'null' ? 'null' : `a ${t}`));
  throw fail(expected.join(' or '));
}

/** The tool arguments for `key=value` pairs, given the tool's input schema (when known). */
export function coerceArguments(pairs: string[], inputSchema: Schema): Json {
  const args: Json = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usage(`"${pair}" is not key=value (use --json for a whole JSON object)`);
    const keys = pair.slice(0, eq).split('.');
    let target = args;
    let schema = inputSchema;
    for (const [i, key] of keys.entries()) {
      const properties = schema?.['properties'] as Record<string, Json> | undefined;
      const known = properties === undefined || key in properties || schema?.['additionalProperties'] !== false;
      if (!known) throw usage(`unknown argument "${keys.slice(0, i + 1).join('.')}" (the schema has: ${Object.keys(properties ?? {}).join(', ') || 'none'})`);
      const child = properties?.[key];
      if (i === keys.length - 1) {
        target[key] = coerceValue(keys.join('.'), pair.slice(eq + 1), child);
      } else {
        const next = target[key];
        target = (target[key] = next !== null && typeof next === 'object' ? next : {}) as Json;
        schema = child;
      }
    }
  }
  return args;
}
