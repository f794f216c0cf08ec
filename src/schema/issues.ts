/**
 * Turning validator output into messages a model can act on:
 * `Invalid arguments: "address.city" must be string (got number); "email" is required`.
 */
import type { StandardIssue } from './standard-schema.js';
import type { ValidationIssue, ValidatorUnit } from './types.js';

type Path = (string | number)[];

/** An issue plus what the combinator merging (anyOf/oneOf) needs to know about it. */
interface RichIssue extends ValidationIssue {
  readonly path: Path;
  readonly kind?: 'type' | 'required' | 'values';
  /** type: the expected type names; values: the allowed values (JSON text); required: [key]. */
  readonly expected?: readonly string[];
  readonly got?: string;
}

/** What the unit interpreter needs from the compiled JSON Schema. */
export interface UnitContext {
  /** The validated value. */
  readonly instance: unknown;
  /** The schema value at a cfworker keywordLocation (following `$ref`s), or undefined. */
  keywordValue(keywordLocation: string): unknown;
}

const MAX_ISSUES = 10;
const MAX_BRANCHES = 5;
const MAX_VALUES = 10;

// ---------------------------------------------------------------- paths

/** Decodes a cfworker JSON pointer (`#/a/b%20c/~1x`): percent-encoding first, then ~1 / ~0. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '#' || pointer === '') return [];
  return pointer
    .slice(pointer.startsWith('#/') ? 2 : 1)
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // keep it as is
      }
      return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** Resolves an instanceLocation against the value: array indices become numbers. */
function locate(pointer: string, instance: unknown): { path: Path; value: unknown } {
  const path: Path = [];
  let value: unknown = instance;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(value)) {
      const index = Number(segment);
      path.push(index);
      value = value[index];
    } else {
      path.push(segment);
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
    }
  }
  return { path, value };
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** `address.city`, `items[0].name`, `headers['content-type']`. */
export function renderPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `['${segment.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  }
  return out;
}

/** One issue as text: predicates (`must be …`) follow the quoted path, vendor sentences follow a colon. */
export function renderIssue(issue: ValidationIssue): string {
  if (issue.path.length === 0) return issue.message;
  const where = JSON.stringify(renderPath(issue.path));
  return /^[a-z]/.test(issue.message) ? `${where} ${issue.message}` : `${where}: ${issue.message}`;
}

/** `Invalid <subject>: <issue>; <issue>; …` — deduplicated, at most ten issues. */
export function formatIssues(issues: readonly ValidationIssue[], subject = 'arguments'): string {
  const parts = [...new Set(issues.map(renderIssue))];
  if (parts.length === 0) return `Invalid ${subject}`;
  const shown = parts.slice(0, MAX_ISSUES).join('; ');
  const more = parts.length > MAX_ISSUES ? `; … and ${parts.length - MAX_ISSUES} more` : '';
  return `Invalid ${subject}: ${shown}${more}`;
}

// ---------------------------------------------------------------- values

/** A short rendering of a value: JSON for primitives, the type name for objects and arrays. */
function show(value: unknown): string {
  let text: string;
  switch (typeof value) {
    case 'string':
      text = JSON.stringify(value);
      break;
    case 'number':
    case 'boolean':
      text = String(value);
      break;
    case 'bigint':
      text = `${value}n`;
      break;
    default:
      text = typeName(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A schema-side value (enum member, const, bound) as JSON. */
function showJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return show(value);
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return show(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function listValues(values: readonly string[]): string {
  const head = values.slice(0, MAX_VALUES).join(', ');
  return values.length > MAX_VALUES ? `${head}, …` : head;
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] ?? ''}`;
}

// ---------------------------------------------------------------- cfworker units → issues

interface Node {
  readonly unit: ValidatorUnit;
  readonly children: Node[];
}

/** Units that only say "a subschema had errors": their children carry the detail. */
const WRAPPERS = new Set([
  '$ref', '$recursiveRef', 'properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties',
  'items', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'allOf', 'anyOf', 'oneOf', 'if',
  'dependentSchemas', 'dependencies', 'propertyNames', 'contains',
]);

function childPrefixes(unit: ValidatorUnit): string[] {
  if (unit.keyword === 'if') {
    const base = unit.keywordLocation.slice(0, -'/if'.length);
    return [`${base}/then/`, `${base}/else/`];
  }
  return [`${unit.keywordLocation}/`];
}

/**
 * cfworker emits a flat list in which a wrapper unit precedes the units of
 * its subschema. Rebuild the tree from keywordLocation prefixes. A `false`
 * schema's unit carries the instance location as its keywordLocation, so it
 * belongs to the innermost open wrapper.
 */
function buildTree(units: readonly ValidatorUnit[]): Node[] {
  const roots: Node[] = [];
  const stack: { node: Node; prefixes: string[] }[] = [];
  for (const unit of units) {
    if (unit.keyword !== 'false') {
      while (stack.length > 0 && !stack[stack.length - 1]!.prefixes.some((p) => unit.keywordLocation.startsWith(p))) {
        stack.pop();
      }
    }
    const node: Node = { unit, children: [] };
    const parent = stack[stack.length - 1];
    (parent === undefined ? roots : parent.node.children).push(node);
    if (WRAPPERS.has(unit.keyword)) stack.push({ node, prefixes: childPrefixes(unit) });
  }
  return roots;
}

/** Issues for the units of one failed cfworker validation. */
export function issuesFromUnits(units: readonly ValidatorUnit[], context: UnitContext): ValidationIssue[] {
  const issues = buildTree(units).flatMap((node) => render(node, context));
  return issues.map(({ path, message }) => ({ path, message }));
}

function render(node: Node, context: UnitContext): RichIssue[] {
  const { unit, children } = node;
  switch (unit.keyword) {
    case 'anyOf':
    case 'oneOf':
      return [combinator(node, context)];
    case 'propertyNames': {
      const { path } = locate(unit.instanceLocation, context.instance);
      const name = /^Property name "(.*)" does not match schema\.$/s.exec(unit.error)?.[1];
      return [{ path, message: name === undefined ? 'has an invalid property name' : `has an invalid property name "${name}"` }];
    }
    case 'contains':
      return [leaf(unit, context)];
    case 'additionalProperties':
    case 'unevaluatedProperties':
      // `additionalProperties: false` yields a bare "False boolean schema" child: say what it means.
      return children.length === 0
        ? [leaf(unit, context)]
        : children.flatMap((child) =>
            child.unit.keyword === 'false'
              ? [{ path: locate(child.unit.instanceLocation, context.instance).path, message: 'is not an allowed property' }]
              : render(child, context),
          );
    default:
      if (WRAPPERS.has(unit.keyword) && children.length > 0) return children.flatMap((child) => render(child, context));
      return [leaf(unit, context)];
  }
}

function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

function combinator(node: Node, context: UnitContext): RichIssue {
  const { unit } = node;
  const { path } = locate(unit.instanceLocation, context.instance);
  const matches = /\((\d+) matches\)/.exec(unit.error)?.[1];
  if (unit.keyword === 'oneOf' && matches !== undefined && Number(matches) > 1) {
    return { path, message: `must match exactly one of the allowed schemas (matches ${matches})` };
  }
  const prefix = `${unit.keywordLocation}/`;
  const byBranch = new Map<string, RichIssue[]>();
  for (const child of node.children) {
    const branch = child.unit.keywordLocation.startsWith(prefix)
      ? (child.unit.keywordLocation.slice(prefix.length).split('/')[0] ?? '')
      : '';
    const list = byBranch.get(branch) ?? [];
    list.push(...render(child, context));
    byBranch.set(branch, list);
  }
  const branches = [...byBranch.values()].filter((issues) => issues.length > 0);
  const singles = branches.every((issues) => issues.length === 1) ? branches.map((issues) => issues[0]!) : [];
  const first = singles[0];
  if (first !== undefined && singles.length === branches.length) {
    const kind = first.kind;
    if ((kind === 'type' || kind === 'values') && singles.every((i) => i.kind === kind && samePath(i.path, first.path))) {
      const expected = [...new Set(singles.flatMap((i) => i.expected ?? []))];
      const got = first.got === undefined ? '' : ` (got ${first.got})`;
      const message = kind === 'type' ? `must be ${orList(expected)}${got}` : `must be one of ${listValues(expected)}${got}`;
      return { path: first.path, kind, expected, ...(first.got === undefined ? {} : { got: first.got }), message };
    }
    const parent = first.path.slice(0, -1);
    if (kind === 'required' && singles.every((i) => i.kind === 'required' && samePath(i.path.slice(0, -1), parent))) {
      const keys = [...new Set(singles.flatMap((i) => i.expected ?? []))].map((k) => JSON.stringify(k));
      return { path: parent, message: `must have ${orList(keys)}` };
    }
  }
  if (branches.length === 0) return { path, message: 'must match at least one of the allowed schemas' };
  const described = branches
    .slice(0, MAX_BRANCHES)
    .map((issues) => `(${issues.map(renderIssue).join(' and ')})`);
  if (branches.length > MAX_BRANCHES) described.push(`… ${branches.length - MAX_BRANCHES} more`);
  const exactly = unit.keyword === 'oneOf' ? 'exactly one' : 'one';
  return { path, message: `must match ${exactly} of: ${described.join(' or ')}` };
}

const COMPARISONS: Readonly<Record<string, string>> = {
  minimum: '>=',
  maximum: '<=',
  exclusiveMinimum: '>',
  exclusiveMaximum: '<',
};

function leaf(unit: ValidatorUnit, context: UnitContext): RichIssue {
  const { path, value } = locate(unit.instanceLocation, context.instance);
  const kv = context.keywordValue(unit.keywordLocation);
  const got = show(value);
  switch (unit.keyword) {
    case 'type': {
      const expected = (Array.isArray(kv) ? kv : [kv]).filter((t): t is string => typeof t === 'string');
      const names = expected.length > 0 ? expected : [/Expected "(.*)"\.$/.exec(unit.error)?.[1] ?? 'another type'];
      const actual = typeof value === 'number' && names.includes('integer') ? got : typeName(value);
      return { path, kind: 'type', expected: names, got: actual, message: `must be ${orList(names)} (got ${actual})` };
    }
    case 'required':
    case 'dependentRequired':
    case 'dependencies': {
      const key = /required property "(.*)"\.$/s.exec(unit.error)?.[1];
      if (key !== undefined) return { path: [...path, key], kind: 'required', expected: [key], message: 'is required' };
      const dependent = /^Instance has "(.*)" but does not have "(.*)"\.$/s.exec(unit.error);
      if (dependent?.[2] !== undefined) {
        return { path: [...path, dependent[2]], message: `is required when "${dependent[1] ?? ''}" is present` };
      }
      return { path, message: fallback(unit.error) };
    }
    case 'enum': {
      const values = Array.isArray(kv) ? kv.map(showJson) : [];
      if (values.length === 0) return { path, message: fallback(unit.error) };
      return { path, kind: 'values', expected: values, got, message: `must be one of ${listValues(values)} (got ${got})` };
    }
    case 'const':
      if (kv === undefined) return { path, message: fallback(unit.error) };
      return { path, kind: 'values', expected: [showJson(kv)], got, message: `must be ${showJson(kv)} (got ${got})` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      if (typeof kv !== 'number') return { path, message: fallback(unit.error) };
      const exclusive = /or equal to/.test(unit.error) && (unit.keyword === 'minimum' || unit.keyword === 'maximum');
      const op = COMPARISONS[unit.keyword] ?? '';
      return { path, message: `must be ${exclusive ? op.replace('=', '') : op} ${kv} (got ${got})` };
    }
    case 'multipleOf':
      return { path, message: `must be a multiple of ${showJson(kv)} (got ${got})` };
    case 'minLength':
    case 'maxLength': {
      const length = typeof value === 'string' ? Array.from(value).length : 0;
      const bound = unit.keyword === 'minLength' ? 'at least' : 'at most';
      return { path, message: `must be ${bound} ${showJson(kv)} characters long (got ${length})` };
    }
    case 'pattern':
      return { path, message: `must match the pattern /${typeof kv === 'string' ? kv : '?'}/ (got ${got})` };
    case 'format':
      return { path, message: `must be a valid ${typeof kv === 'string' ? kv : 'formatted string'} (got ${got})` };
    case 'minItems':
    case 'maxItems': {
      const bound = unit.keyword === 'minItems' ? 'at least' : 'at most';
      const length = Array.isArray(value) ? value.length : 0;
      return { path, message: `must have ${bound} ${showJson(kv)} items (got ${length})` };
    }
    case 'uniqueItems': {
      const indexes = /indexes (\d+) and (\d+)/.exec(unit.error);
      const which = indexes === null ? '' : ` (items ${indexes[1] ?? '?'} and ${indexes[2] ?? '?'} are equal)`;
      return { path, message: `must not contain duplicate items${which}` };
    }
    case 'minProperties':
    case 'maxProperties': {
      const bound = unit.keyword === 'minProperties' ? 'at least' : 'at most';
      return { path, message: `must have ${bound} ${showJson(kv)} properties` };
    }
    case 'contains':
      return { path, message: 'must contain at least one item matching the "contains" schema' };
    case 'not':
      return { path, message: 'must not match the schema in "not"' };
    case 'false':
      return { path, message: 'is not allowed' };
    default:
      return { path, message: fallback(unit.error) };
  }
}

/** cfworker's own sentence as a predicate: `Instance does not …` → `does not …`. */
function fallback(error: string): string {
  const text = error.replace(/^Instance /, '').replace(/\.$/, '');
  return text.charAt(0).toLowerCase() + text.slice(1);
}

// ---------------------------------------------------------------- Standard Schema issues

function segmentKey(segment: PropertyKey | { readonly key: PropertyKey }): string | number {
  const key = typeof segment === 'object' ? segment.key : segment;
  if (typeof key === 'symbol') return key.description ?? key.toString();
  return key;
}

/** Standard Schema issues as ValidationIssues; a message that repeats its own path (arktype) loses the repetition. */
export function issuesFromStandard(issues: readonly StandardIssue[]): ValidationIssue[] {
  return issues.map((issue) => {
    const path = Array.from(issue.path ?? [], segmentKey);
    const rendered = renderPath(path);
    const message =
      rendered !== '' && issue.message.startsWith(`${rendered} `) ? issue.message.slice(rendered.length + 1) : issue.message;
    return { path, message };
  });
}
