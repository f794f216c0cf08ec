/**
 * OpenAPI Schema Objects → JSON Schema 2020-12, lazily and once per referenced schema.
 *
 * Every `$ref` to a schema becomes `{ "$ref": "#/$defs/<name>" }` and the schema it names is
 * converted once, on first use, into a shared table; a tool's schema carries only the `$defs`
 * it reaches. A circular schema is therefore a `$defs` reference to itself, never an endless
 * expansion, and the work is linear in what the kept operations reach — not in the document.
 *
 * 3.0 specifics: `nullable` becomes a `"null"` type (or an `anyOf` with `{ "type": "null" }`),
 * boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, siblings of `$ref` are dropped
 * (3.0 ignores them). OpenAPI-only keywords (`example`, `discriminator`, `xml`, `externalDocs`,
 * `x-…`) and unknown keywords are left out, and so are invalid `pattern`s: 3.0's `example` alone
 * is a quarter of GitHub's output schemas, bytes every tools/list would carry to the model.
 */
import { OpenApiError } from './errors.js';
import { resolvePointer } from './pointer.js';
import { presetJson } from '../jsonrpc/preset-json.js';

export type JsonSchema = Record<string, unknown> | boolean;

interface Def {
  readonly name: string;
  schema: JsonSchema | undefined;
  readonly uses: Set<string>;
}

type Kind = 'sub' | 'list' | 'map' | 'type' | 'required' | 'array' | 'any' | 'pattern' | 'count' | 'number' | 'string' | 'boolean' | 'dependentRequired';
/** The JSON Schema 2020-12 keywords kept, by what their value must be. */
const KIND = new Map<string, Kind>([
  ...['additionalProperties', 'unevaluatedProperties', 'items', 'additionalItems', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'].map((k) => [k, 'sub'] as const),
  ...['allOf', 'anyOf', 'oneOf', 'prefixItems'].map((k) => [k, 'list'] as const),
  ...['properties', 'patternProperties', 'dependentSchemas'].map((k) => [k, 'map'] as const),
  ...['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'].map((k) => [k, 'count'] as const),
  ...['minimum', 'maximum', 'multipleOf', 'exclusiveMinimum', 'exclusiveMaximum'].map((k) => [k, 'number'] as const),
  ...['title', 'description', 'format', 'contentMediaType', 'contentEncoding', '$comment'].map((k) => [k, 'string'] as const),
  ...['uniqueItems', 'deprecated', 'readOnly', 'writeOnly'].map((k) => [k, 'boolean'] as const),
  ['type', 'type'], ['required', 'required'], ['enum', 'array'], ['examples', 'array'], ['const', 'any'], ['default', 'any'],
  ['pattern', 'pattern'], ['dependentRequired', 'dependentRequired'],
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const MAX_DEPTH = 128;

/** FNV-1a, 32 bits, hex: a short deterministic tag for names that had to be changed. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** A `$defs` key for a pointer: `#/components/schemas/Pet` → `Pet`; anything changed carries a hash of the pointer. */
function defName(ref: string): string {
  const m = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
  const wanted = m === null ? ref.replace(/^#\//, '') : decodeURIComponent(m[1]!).replace(/~1/g, '/').replace(/~0/g, '~');
  const safe = wanted.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return safe === wanted && m !== null ? safe : `${safe}_${shortHash(ref)}`;
}

export class SchemaConverter {
  readonly #root: unknown;
  readonly #v30: boolean;
  readonly #defs = new Map<string, Def>();
  readonly #byName = new Map<string, string>();
  /** Whole schemas converted at the top, by their raw object: a def and every response that ends at it share one result. */
  readonly #whole = new Map<object, { schema: JsonSchema; uses: Set<string> }>();
  #pending: { ref: string; def: Def }[] = [];

  constructor(root: unknown, version: '3.0' | '3.1') {
    this.#root = root;
    this.#v30 = version === '3.0';
  }

  /**
   * A self-contained JSON Schema for the schema at `at`: the converted schema plus, under `$defs`,
   * every definition it reaches (transitively). `uses` collects the def names met at the top level.
   */
  standalone(schema: unknown, at: string): JsonSchema {
    const uses = new Set<string>();
    const converted = this.convert(schema, at, uses);
    return this.withDefs(converted, uses);
  }

  /** Converts one schema; def names it references are added to `uses`. */
  convert(schema: unknown, at: string, uses: Set<string>): JsonSchema {
    const out = this.#convert(schema, at, uses, 0);
    this.#drain();
    return out;
  }

  /**
   * convert() of a whole schema, shared: the same raw schema (a component that many responses return)
   * gives the one frozen result, its parts preset (serialised once), instead of a copy per tool.
   */
  convertShared(schema: unknown, at: string, uses: Set<string>): JsonSchema {
    if (typeof schema !== 'object' || schema === null) return this.convert(schema, at, uses);
    let whole = this.#whole.get(schema);
    if (whole === undefined) {
      const own = new Set<string>();
      whole = { schema: presetParts(this.convert(schema, at, own)), uses: own };
      this.#whole.set(schema, whole);
    }
    for (const name of whole.uses) uses.add(name);
    return whole.schema;
  }

  /** Attaches the `$defs` reachable from `uses` to `schema` (a boolean schema becomes an object when it needs them). */
  withDefs(schema: JsonSchema, uses: Set<string>): JsonSchema {
    if (uses.size === 0) return schema;
    const names = [...this.reach(uses)].sort();
    const $defs: Record<string, JsonSchema> = {};
    for (const name of names) $defs[name] = this.#defs.get(this.#byName.get(name)!)!.schema!;
    const base = typeof schema === 'boolean' ? (schema ? {} : { not: {} }) : schema;
    return { ...base, $defs };
  }

  /** The def names reachable from `uses`. */
  reach(uses: Iterable<string>): Set<string> {
    const seen = new Set<string>();
    const stack = [...uses];
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      for (const next of this.#defs.get(this.#byName.get(name)!)!.uses) if (!seen.has(next)) stack.push(next);
    }
    return seen;
  }

  /** The raw schema a `$ref` chain ends at (for looking at a body's properties before converting). */
  target(schema: unknown, at: string): unknown {
    let current = schema;
    for (let hops = 0; hops < 32; hops++) {
      if (typeof current !== 'object' || current === null) return current;
      const ref = (current as { $ref?: unknown }).$ref;
      if (typeof ref !== 'string') return current;
      current = resolvePointer(this.#root, ref, at);
    }
    return current;
  }

  #drain(): void {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      for (const { ref, def } of batch) {
        const raw = resolvePointer(this.#root, ref, ref);
        const whole = typeof raw === 'object' && raw !== null ? this.#whole.get(raw) : undefined;
        if (whole !== undefined) {
          def.schema = whole.schema;
          for (const name of whole.uses) def.uses.add(name);
          continue;
        }
        // Shared by every tool that reaches it: serialised once per process, spliced into each tools/list (preset-json.ts).
        def.schema = presetParts(this.#convert(raw, ref, def.uses, 0));
        if (typeof raw === 'object' && raw !== null) this.#whole.set(raw, { schema: def.schema, uses: def.uses });
      }
    }
  }

  #ref(ref: string, at: string, uses: Set<string>): JsonSchema {
    let def = this.#defs.get(ref);
    if (def === undefined) {
      resolvePointer(this.#root, ref, at); // refuses external and dangling references here, naming where
      let name = defName(ref);
      const taken = this.#byName.get(name);
      if (taken !== undefined && taken !== ref) name = `${name}_${shortHash(ref)}`;
      def = { name, schema: undefined, uses: new Set() };
      this.#defs.set(ref, def);
      this.#byName.set(name, ref);
      this.#pending.push({ ref, def });
    }
    uses.add(def.name);
    return { $ref: `#/$defs/${def.name}` };
  }

  #convert(schema: unknown, at: string, uses: Set<string>, depth: number): JsonSchema {
    if (typeof schema === 'boolean') return schema;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return {};
    if (depth > MAX_DEPTH) throw new OpenApiError(`a schema nested more than ${MAX_DEPTH} levels deep`, at);
    const s = schema as Record<string, unknown>;
    const ref = s['$ref'];
    if (typeof ref === 'string') {
      const target = this.#ref(ref, at, uses);
      if (this.#v30) return target;
      // 3.1: siblings of $ref apply too (JSON Schema 2020-12).
      const { $ref: _ref, ...rest } = s;
      const siblings = this.#convert(rest, at, uses, depth + 1);
      return typeof siblings === 'object' && Object.keys(siblings).length > 0 ? { allOf: [target, siblings] } : target;
    }
    const out: Record<string, unknown> = {};
    const child = (value: unknown, key: string): JsonSchema => this.#convert(value, `${at}/${key}`, uses, depth + 1);
    for (const key in s) {
      if (!Object.hasOwn(s, key)) continue;
      const value = s[key];
      switch (KIND.get(key)) {
        case 'sub':
          if (key === 'items' && Array.isArray(value)) out['prefixItems'] = value.map((v, i) => child(v, `items/${i}`));
          else if (typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value))) out[key] = child(value, key);
          break;
        case 'list':
          if (Array.isArray(value) && value.length > 0) out[key] = value.map((v, i) => child(v, `${key}/${i}`));
          break;
        case 'map':
          if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
            const map: Record<string, JsonSchema> = {};
            for (const name of Object.keys(value)) {
              if (key === 'patternProperties' && !validPattern(name)) continue;
              const converted = child((value as Record<string, unknown>)[name], `${key}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
              if (name === '__proto__') Object.defineProperty(map, name, { value: converted, enumerable: true, writable: true, configurable: true });
              else map[name] = converted;
            }
            out[key] = map;
          }
          break;
        case 'type':
          if (typeof value === 'string' && TYPES.has(value)) out['type'] = value;
          else if (Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === 'string' && TYPES.has(t))) out['type'] = [...new Set(value)];
          break;
        case 'required':
          if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out['required'] = [...new Set(value)];
          break;
        case 'array':
          if (Array.isArray(value)) out[key] = copyJson(value);
          break;
        case 'any':
          out[key] = copyJson(value);
          break;
        case 'pattern':
          if (typeof value === 'string' && validPattern(value)) out['pattern'] = value;
          break;
        case 'count':
          if (Number.isSafeInteger(value) && (value as number) >= 0) out[key] = value;
          break;
        case 'number':
          if (typeof value === 'number' && Number.isFinite(value) && (key !== 'multipleOf' || value > 0)) out[key] = value;
          break;
        case 'string':
          if (typeof value === 'string') out[key] = value;
          break;
        case 'boolean':
          if (typeof value === 'boolean') out[key] = value;
          break;
        case 'dependentRequired':
          if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => Array.isArray(v) && v.every((n) => typeof n === 'string'))) out[key] = copyJson(value);
          break;
        default:
        // OpenAPI-only and unknown keywords are left out.
      }
    }
    // 3.0 (and draft 4) booleans: `minimum: 1, exclusiveMinimum: true` is `exclusiveMinimum: 1`.
    for (const [bound, exclusive] of [['minimum', 'exclusiveMinimum'], ['maximum', 'exclusiveMaximum']] as const) {
      if (s[exclusive] === true && typeof out[bound] === 'number') {
        out[exclusive] = out[bound];
        delete out[bound];
      }
    }
    if (this.#v30 && s['nullable'] === true) return nullable(out);
    return out;
  }
}

/**
 * A converted schema frozen, preset as a whole (a `$defs` entry) and in its parts: a tool whose schema is
 * `{ ...shared, $defs }` (a response that is a component) splices the shared `properties` and the like.
 */
function presetParts(schema: JsonSchema): JsonSchema {
  if (typeof schema === 'boolean') return schema;
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (typeof value === 'object' && value !== null) presetJson(value);
  }
  return presetJson(schema);
}

/**
 * A copy of a value taken from the document (`enum`, `const`, `default`, …): the converted schemas are
 * frozen (preset-json.ts), and a document given as an object is its caller's, not ours to freeze.
 */
function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}

/** 3.0 `nullable: true`: null is one more allowed value. */
function nullable(out: Record<string, unknown>): Record<string, unknown> {
  const type = out['type'];
  const composite = out['allOf'] !== undefined || out['anyOf'] !== undefined || out['oneOf'] !== undefined || out['not'] !== undefined;
  if (typeof type === 'string' && !composite) {
    out['type'] = [type, 'null'];
    if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...(out['enum'] as unknown[]), null];
    return out;
  }
  if (type === undefined && !composite && out['enum'] === undefined) return out; // already accepts null
  return { anyOf: [out, { type: 'null' }] };
}

const patterns = new Map<string, boolean>();

/** Whether a pattern compiles as a Unicode regular expression (what validators use); remembered. */
function validPattern(pattern: string): boolean {
  let valid = patterns.get(pattern);
  if (valid === undefined) {
    try {
      new RegExp(pattern, 'u');
      valid = true;
    } catch {
      valid = false;
    }
    if (patterns.size < 10_000) patterns.set(pattern, valid);
  }
  return valid;
}
