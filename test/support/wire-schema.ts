// Wire validation against the JSON schemas the MCP specification publishes
// (vendored unchanged under test/spec/<revision>/schema.json).
//
// Every test that looks at bytes a server wrote should run them through
// `validateWire` (the message envelope, plus the typed definition for its
// method) and, for responses, `validateResult` (the result type of the method
// that was called). Nothing here reads outside the repository.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';

export const SPEC_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type SpecRevision = (typeof SPEC_REVISIONS)[number];

type Kind = 'request' | 'notification' | 'result' | 'error';
type Json = Record<string, unknown>;

interface MethodDefinition {
  readonly name: string;
  readonly kind: 'request' | 'notification';
}

interface RevisionSchema {
  readonly revision: string;
  readonly key: string;
  readonly defsKey: 'definitions' | '$defs';
  readonly defs: Record<string, Json>;
  readonly ajv: Ajv | Ajv2020;
  readonly validators: Map<string, ValidateFunction>;
  /** method name → typed request/notification definition (from `properties.method.const`). */
  readonly methods: Map<string, MethodDefinition>;
  /** JSONRPCMessage branches, classified by what each branch requires. */
  readonly envelope: Map<Kind, string>;
}

const cache = new Map<string, RevisionSchema>();

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refName(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  const ref = schema['$ref'];
  return typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : undefined;
}

function requiredOf(def: Json | undefined): string[] {
  const required = def?.['required'];
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
}

function load(revision: string): RevisionSchema {
  const hit = cache.get(revision);
  if (hit) return hit;
  if (!(SPEC_REVISIONS as readonly string[]).includes(revision)) {
    throw new Error(`wire-schema: no vendored schema for revision '${revision}' (known: ${SPEC_REVISIONS.join(', ')})`);
  }
  const url = new URL(`../spec/${revision}/schema.json`, import.meta.url);
  const schema = JSON.parse(readFileSync(url, 'utf8')) as Json;
  const defsKey = '$defs' in schema ? '$defs' : 'definitions';
  const defs = schema[defsKey] as Record<string, Json>;
  const draft2020 = String(schema['$schema']).includes('2020-12');
  const options = { strict: false, allErrors: true } as const;
  const ajv = draft2020 ? new Ajv2020(options) : new Ajv(options);
  addFormatsModule.default(ajv);
  const key = `mcp-spec-${revision}`;
  ajv.addSchema(schema, key);

  const methods = new Map<string, MethodDefinition>();
  for (const name of Object.keys(defs).sort()) {
    const def = defs[name];
    const props = def?.['properties'];
    const method = isObject(props) && isObject(props['method']) ? props['method']['const'] : undefined;
    if (typeof method !== 'string') continue;
    // 2026-07-28 emits `ClientNotification` as a copy of CancelledNotification
    // (a one-member union collapsed by the generator): prefer the specific name.
    const isUnionName = /^(Client|Server)(Request|Notification)$/.test(name);
    const existing = methods.get(method);
    if (existing && isUnionName) continue;
    // Legacy typed definitions carry only method/params (no id), so the name decides.
    const kind = name.endsWith('Notification') ? 'notification' : 'request';
    methods.set(method, { name, kind });
  }

  const envelope = new Map<Kind, string>();
  const branches = defs['JSONRPCMessage']?.['anyOf'];
  for (const branch of Array.isArray(branches) ? branches : []) {
    const name = refName(branch);
    if (name === undefined) continue; // 2025-03-26 inline batch arrays
    const req = requiredOf(defs[name]);
    const kind: Kind | undefined = req.includes('method')
      ? req.includes('id') ? 'request' : 'notification'
      : req.includes('result') ? 'result' : req.includes('error') ? 'error' : undefined;
    if (kind) envelope.set(kind, name);
  }

  const loaded: RevisionSchema = { revision, key, defsKey, defs, ajv, validators: new Map(), methods, envelope };
  cache.set(revision, loaded);
  return loaded;
}

function validatorFor(spec: RevisionSchema, pointer: string): ValidateFunction {
  let fn = spec.validators.get(pointer);
  if (!fn) {
    fn = spec.ajv.compile({ $ref: `${spec.key}#/${spec.defsKey}/${pointer}` });
    spec.validators.set(pointer, fn);
  }
  return fn;
}

function describe(label: string, error: ErrorObject, prefix: string): string {
  const at = `${prefix}${error.instancePath}` || '/';
  const params = error.params as Record<string, unknown>;
  let detail = '';
  if (error.keyword === 'additionalProperties') detail = ` ('${String(params['additionalProperty'])}')`;
  else if (error.keyword === 'const') detail = ` (${JSON.stringify(params['allowedValue'])})`;
  else if (error.keyword === 'enum') detail = ` (${JSON.stringify(params['allowedValues'])})`;
  return `${label} at ${at}: ${error.message ?? error.keyword}${detail}`;
}

function run(spec: RevisionSchema, pointer: string, value: unknown, label: string, prefix = ''): string[] {
  const fn = validatorFor(spec, pointer);
  if (fn(value)) return [];
  return [...new Set((fn.errors ?? []).map((e) => describe(label, e, prefix)))];
}

/** Validate `value` against `#/$defs/<name>` (or `#/definitions/<name>`) of a revision's schema. */
export function validateDefinition(value: unknown, name: string, revision: string): string[] {
  const spec = load(revision);
  if (!(name in spec.defs)) return [`revision ${revision} defines no '${name}'`];
  return run(spec, name, value, name);
}

/** The typed request/notification definition for a method, e.g. `tools/call` → `CallToolRequest`. */
export function definitionForMethod(method: string, revision: string): { name: string; kind: 'request' | 'notification' } | undefined {
  return load(revision).methods.get(method);
}

/** Result definitions acceptable for `method`: e.g. `['InputRequiredResult', 'CallToolResult']`. */
export function resultDefinitionsFor(method: string, revision: string, options: { taskAugmented?: boolean } = {}): string[] | undefined {
  const spec = load(revision);
  const request = spec.methods.get(method);
  if (request?.kind !== 'request') return undefined;
  if (options.taskAugmented === true && 'CreateTaskResult' in spec.defs) return ['CreateTaskResult'];
  const base = request.name.replace(/Request$/, '');
  // 2026-07-28 declares per-method responses: <Base>ResultResponse.properties.result.
  const response = spec.defs[`${base}ResultResponse`]?.['properties'];
  const result = isObject(response) ? response['result'] : undefined;
  if (isObject(result)) {
    const alternatives = Array.isArray(result['anyOf']) ? result['anyOf'] : [result];
    const names = alternatives.map(refName).filter((n): n is string => n !== undefined);
    if (names.length > 0) return names;
  }
  for (const candidate of [`${base}Result`, 'EmptyResult', 'Result']) {
    if (candidate in spec.defs) return [candidate];
  }
  return undefined;
}

/**
 * Violations of a response's `result` for the method it answers (empty = valid).
 * Where the schema allows `InputRequiredResult | <X>Result`, `resultType`
 * selects the branch (the schema alone would let InputRequiredResult, which
 * only requires `resultType`, absorb any malformed final result).
 */
export function validateResult(result: unknown, method: string, revision: string, options: { taskAugmented?: boolean } = {}): string[] {
  return resultViolations(load(revision), result, method, options, '');
}

function resultViolations(spec: RevisionSchema, result: unknown, method: string, options: { taskAugmented?: boolean }, prefix: string): string[] {
  const names = resultDefinitionsFor(method, spec.revision, options);
  if (!names) return [`revision ${spec.revision} defines no request method '${method}'`];
  const resultType = isObject(result) ? result['resultType'] : undefined;
  const violations: string[] = [];
  let candidates = names;
  if (names.includes('InputRequiredResult')) {
    if (resultType === 'input_required') {
      candidates = ['InputRequiredResult'];
      if (isObject(result) && !('inputRequests' in result) && !('requestState' in result)) {
        violations.push(`InputRequiredResult at ${prefix || '/'}: at least one of inputRequests or requestState MUST be present`);
      }
    } else {
      candidates = names.filter((n) => n !== 'InputRequiredResult');
    }
  }
  if ('ResultType' in spec.defs && typeof resultType === 'string' && resultType !== 'complete' && resultType !== 'input_required') {
    violations.push(`${candidates.join(' | ')} at ${prefix}/resultType: must be 'complete' or 'input_required' (got ${JSON.stringify(resultType)})`);
  }
  const perCandidate = candidates.map((name) => run(spec, name, result, name, prefix));
  if (perCandidate.some((v) => v.length === 0)) return violations;
  return [...violations, ...perCandidate.flat()];
}

function checkOne(spec: RevisionSchema, message: unknown, prefix: string, resultOf: string | undefined): string[] {
  if (!isObject(message)) return [];
  const violations: string[] = [];
  const method = message['method'];
  if (typeof method === 'string') {
    const def = spec.methods.get(method);
    if (def) {
      violations.push(...run(spec, def.name, message, def.name, prefix));
      if (def.kind === 'notification' && 'id' in message) {
        violations.push(`${def.name} at ${prefix || '/'}: '${method}' is a notification and must not carry an id`);
      }
    }
  } else if (resultOf !== undefined && 'result' in message) {
    violations.push(...resultViolations(spec, message['result'], resultOf, {}, `${prefix}/result`));
  }
  return violations;
}

/**
 * Violations of one wire message (empty = valid): the revision's JSONRPCMessage
 * union, plus the typed definition for its `method` when the schema has one.
 * Pass `resultOf` (the method the response answers) to also check the result.
 */
export function validateWire(message: unknown, revision: string, resultOf?: string): string[] {
  const spec = load(revision);
  const violations: string[] = [];
  if (!validatorFor(spec, 'JSONRPCMessage')(message)) {
    const kind: Kind | undefined = !isObject(message)
      ? undefined
      : 'method' in message ? ('id' in message ? 'request' : 'notification')
      : 'result' in message ? 'result' : 'error' in message ? 'error' : undefined;
    const branch = kind && spec.envelope.get(kind);
    const branchViolations = branch ? run(spec, branch, message, branch) : [];
    violations.push(...(branchViolations.length > 0 ? branchViolations : run(spec, 'JSONRPCMessage', message, 'JSONRPCMessage')));
  }
  if (Array.isArray(message)) {
    message.forEach((m, i) => violations.push(...checkOne(spec, m, `/${i}`, undefined)));
  } else {
    violations.push(...checkOne(spec, message, '', resultOf));
  }
  return [...new Set(violations)];
}

function fail(what: string, violations: string[], value: unknown): never {
  throw new Error(`${what}:\n  - ${violations.join('\n  - ')}\nvalue: ${JSON.stringify(value)}`);
}

/** Throws an Error listing every violation; returns normally when the message is valid. */
export function expectValidWire(message: unknown, revision: string, resultOf?: string): void {
  const violations = validateWire(message, revision, resultOf);
  if (violations.length > 0) fail(`invalid ${revision} wire message`, violations, message);
}

/** Throws an Error listing every violation; returns normally when the result is valid. */
export function expectValidResult(result: unknown, method: string, revision: string, options: { taskAugmented?: boolean } = {}): void {
  const violations = validateResult(result, method, revision, options);
  if (violations.length > 0) fail(`invalid ${revision} result for '${method}'`, violations, result);
}
