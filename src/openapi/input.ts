/**
 * One input schema per operation. Arguments are named after their parameters; when two
 * locations want the same name, the first in the order path, query, header, cookie, body keeps
 * it and the others take `<name>__<location>` (`id__query`). A JSON or form body whose schema is
 * an object with `properties` (no `allOf`/`anyOf`/`oneOf`) is flattened: each property is an
 * argument. Any other body is one argument, `body`. Header names stay as written when they are
 * valid argument names (`X-Request-Id`); `Accept`, `Content-Type` and `Authorization` header
 * parameters are ignored, as OpenAPI says.
 */
import { argumentName } from './names.js';
import type { OpenApiOperation, OpenApiParameter, ParameterLocation } from './operations.js';
import type { JsonSchema, SchemaConverter } from './schema.js';

export type BodyKind = 'json' | 'form' | 'multipart' | 'text' | 'binary';

export interface Binding {
  readonly arg: string;
  readonly in: ParameterLocation | 'body' | 'body-property';
  /** The parameter or body property name on the wire. */
  readonly name: string;
  readonly parameter?: OpenApiParameter;
}

export interface InputPlan {
  readonly schema: Record<string, unknown>;
  readonly bindings: readonly Binding[];
  readonly body?: { readonly contentType: string; readonly kind: BodyKind; readonly flat: boolean; readonly binaryFields: ReadonlySet<string> };
}

const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function kindOf(contentType: string): BodyKind | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'multipart/form-data') return 'multipart';
  if (type.startsWith('text/')) return 'text';
  if (type === 'application/octet-stream' || type.includes('*') || type.startsWith('image/') || type.startsWith('audio/') || type.startsWith('video/') || type === 'application/pdf' || type === 'application/zip') return 'binary';
  return undefined;
}

const RANK: Record<BodyKind, number> = { json: 0, form: 1, multipart: 2, text: 3, binary: 4 };

/** The request body's media type this tool sends: JSON first, then form, multipart, text, binary. */
export function pickBody(content: Record<string, unknown>): { contentType: string; kind: BodyKind; schema: unknown } | undefined {
  let best: { contentType: string; kind: BodyKind; schema: unknown } | undefined;
  for (const [contentType, media] of Object.entries(content)) {
    const kind = kindOf(contentType);
    if (kind === undefined) continue;
    if (best === undefined || RANK[kind] < RANK[best.kind]) best = { contentType: contentType.includes('*') ? 'application/octet-stream' : contentType, kind, schema: isObject(media) ? media['schema'] : undefined };
  }
  return best;
}

export function planInput(op: OpenApiOperation, converter: SchemaConverter): InputPlan {
  const uses = new Set<string>();
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const bindings: Binding[] = [];
  const claim = (wanted: string, location: string): string => {
    let arg = argumentName(wanted);
    if (Object.hasOwn(properties, arg)) arg = argumentName(`${wanted}__${location}`);
    for (let n = 2; Object.hasOwn(properties, arg); n++) arg = argumentName(`${wanted}__${location}_${n}`);
    return arg;
  };
  const add = (arg: string, schema: JsonSchema, description: string | undefined, isRequired: boolean): void => {
    const withDescription = description !== undefined && typeof schema === 'object' && schema['description'] === undefined ? { ...schema, description } : schema;
    Object.defineProperty(properties, arg, { value: withDescription, enumerable: true, writable: true, configurable: true });
    if (isRequired) required.push(arg);
  };

  for (const location of ['path', 'query', 'header', 'cookie'] as const) {
    for (const p of op.parameters) {
      if (p.in !== location || (location === 'header' && IGNORED_HEADERS.has(p.name.toLowerCase()))) continue;
      const arg = claim(p.name, location);
      add(arg, converter.convert(p.schema, `${p.at}/schema`, uses), p.description, p.required);
      bindings.push({ arg, in: location, name: p.name, parameter: p });
    }
  }

  let body: InputPlan['body'];
  const picked = op.requestBody === undefined ? undefined : pickBody(op.requestBody.content);
  if (op.requestBody !== undefined && picked !== undefined) {
    const at = `${op.at}/requestBody/content/${picked.contentType.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`;
    const target = converter.target(picked.schema, at);
    const binaryFields = new Set<string>();
    const flat =
      (picked.kind === 'json' || picked.kind === 'form' || picked.kind === 'multipart') &&
      isObject(target) && isObject(target['properties']) && (target['type'] === 'object' || target['type'] === undefined) &&
      target['allOf'] === undefined && target['anyOf'] === undefined && target['oneOf'] === undefined;
    if (flat) {
      const props = target['properties'] as Record<string, unknown>;
      const requiredProps = Array.isArray(target['required']) ? (target['required'] as unknown[]) : [];
      for (const name of Object.keys(props)) {
        const raw = converter.target(props[name], `${at}/properties/${name}`);
        if (isObject(raw) && raw['readOnly'] === true) continue; // readOnly: sent by the server only
        if (isObject(raw) && raw['type'] === 'string' && (raw['format'] === 'binary' || raw['format'] === 'byte') && picked.kind === 'multipart') binaryFields.add(name);
        const arg = claim(name, 'body');
        const schema = converter.convert(props[name], `${at}/properties/${name}`, uses);
        add(arg, binaryFields.has(name) ? { type: 'string', contentEncoding: 'base64' } : schema, undefined, op.requestBody.required && requiredProps.includes(name));
        bindings.push({ arg, in: 'body-property', name });
      }
    } else {
      const arg = claim('body', 'body');
      const schema = picked.kind === 'binary' ? { type: 'string', contentEncoding: 'base64' } : picked.kind === 'text' ? { type: 'string' } : converter.convert(picked.schema ?? {}, at, uses);
      add(arg, schema, op.requestBody.description, op.requestBody.required);
      bindings.push({ arg, in: 'body', name: 'body' });
    }
    body = { contentType: picked.contentType, kind: picked.kind, flat, binaryFields };
  }

  const schema = converter.withDefs(
    { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false },
    uses,
  ) as Record<string, unknown>;
  return { schema, bindings, ...(body !== undefined && { body }) };
}
