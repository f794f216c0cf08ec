/** The operations of a document, their Reference Objects followed, filtered by what the options keep. */
import { OpenApiError } from './errors.js';
import type { OpenApiDocument } from './load.js';
import { follow, pointerOf } from './pointer.js';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof METHODS)[number];

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface OpenApiParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly style?: string;
  readonly explode?: boolean;
  readonly allowReserved?: boolean;
  /** The raw schema (converted later); for a `content` parameter, the schema of its media type. */
  readonly schema: unknown;
  /** Set when the parameter is described by `content` (its value is serialised as that media type, JSON). */
  readonly contentType?: string;
  readonly at: string;
}

export interface OpenApiOperation {
  readonly method: HttpMethod;
  readonly path: string;
  readonly operationId?: string;
  readonly tags: readonly string[];
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly parameters: readonly OpenApiParameter[];
  readonly requestBody?: { readonly required: boolean; readonly description?: string; readonly content: Record<string, { schema?: unknown; encoding?: unknown }> };
  readonly responses: Record<string, { readonly description?: string; readonly content?: Record<string, { schema?: unknown }> }>;
  /** The operation's security requirements, else the document's. */
  readonly security?: readonly Record<string, readonly string[]>[];
  /** `#/paths/~1pets/get`. */
  readonly at: string;
}

/** Which operations to keep; every listed criterion must match (a function decides alone). */
export type OperationFilter =
  | {
      /** operationIds (or, without one, the derived tool name). */
      readonly operations?: readonly string[];
      readonly tags?: readonly string[];
      /** Exact path templates (`/pets/{petId}`) or regular expressions over them. */
      readonly paths?: readonly (string | RegExp)[];
      readonly methods?: readonly string[];
    }
  | ((operation: OpenApiOperation) => boolean);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const LOCATIONS = new Set(['path', 'query', 'header', 'cookie']);

function parameter(root: unknown, raw: unknown, at: string): OpenApiParameter {
  const p = follow(root, raw, at);
  if (!isObject(p) || typeof p['name'] !== 'string' || typeof p['in'] !== 'string' || !LOCATIONS.has(p['in'])) {
    throw new OpenApiError('a parameter needs a string "name" and "in" one of path, query, header, cookie', at);
  }
  let schema: unknown = p['schema'];
  let contentType: string | undefined;
  if (schema === undefined && isObject(p['content'])) {
    const [type, media] = Object.entries(p['content'])[0] ?? [];
    contentType = type;
    schema = isObject(media) ? media['schema'] : undefined;
  }
  return {
    name: p['name'],
    in: p['in'] as ParameterLocation,
    required: p['in'] === 'path' || p['required'] === true,
    ...(typeof p['description'] === 'string' && { description: p['description'] }),
    ...(p['deprecated'] === true && { deprecated: true }),
    ...(typeof p['style'] === 'string' && { style: p['style'] }),
    ...(typeof p['explode'] === 'boolean' && { explode: p['explode'] }),
    ...(p['allowReserved'] === true && { allowReserved: true }),
    schema: schema ?? {},
    ...(contentType !== undefined && { contentType }),
    at,
  };
}

/**
 * An operation's responses by status, Reference Objects followed. Status codes are array indices
 * to V8: set one by one on a new object, "404" makes a 600-slot elements store (5 KB per
 * operation, 5 MB of GitHub's live heap); the record is therefore made by JSON.parse, which
 * stores sparse indices in a dictionary, and its values set after. Same keys, order and values.
 */
function responsesOf(root: unknown, raw: Record<string, unknown>, at: string): OpenApiOperation['responses'] {
  const kept: [string, OpenApiOperation['responses'][string]][] = [];
  for (const status of Object.keys(raw)) {
    const response = follow(root, raw[status], `${at}/responses/${status}`);
    if (isObject(response)) kept.push([status, response]);
  }
  const responses = JSON.parse(`{${kept.map(([status]) => `${JSON.stringify(status)}:0`).join(',')}}`) as Record<string, OpenApiOperation['responses'][string]>;
  for (const [status, response] of kept) responses[status] = response;
  return responses;
}

/** Every operation of the document, in document order. */
export function listOperations(doc: OpenApiDocument): OpenApiOperation[] {
  const { root } = doc;
  const paths = root['paths'];
  if (!isObject(paths)) return [];
  const globalSecurity = Array.isArray(root['security']) ? (root['security'] as Record<string, string[]>[]) : undefined;
  const out: OpenApiOperation[] = [];
  for (const path of Object.keys(paths)) {
    const itemAt = pointerOf(['paths', path]);
    const item = follow(root, paths[path], itemAt);
    if (!isObject(item)) continue;
    if (!path.startsWith('/')) throw new OpenApiError(`a path must start with "/" (got ${JSON.stringify(path)})`, itemAt);
    const shared = Array.isArray(item['parameters']) ? item['parameters'].map((p, i) => parameter(root, p, `${itemAt}/parameters/${i}`)) : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const at = `${itemAt}/${method}`;
      const own = Array.isArray(op['parameters']) ? op['parameters'].map((p, i) => parameter(root, p, `${at}/parameters/${i}`)) : [];
      // An operation's parameter replaces the path item's of the same name and location.
      const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const body = op['requestBody'] === undefined ? undefined : follow(root, op['requestBody'], `${at}/requestBody`);
      const responses = isObject(op['responses']) ? responsesOf(root, op['responses'], at) : {};
      const security = Array.isArray(op['security']) ? (op['security'] as Record<string, string[]>[]) : globalSecurity;
      out.push({
        method,
        path,
        ...(typeof op['operationId'] === 'string' && { operationId: op['operationId'] }),
        tags: Array.isArray(op['tags']) ? op['tags'].filter((t): t is string => typeof t === 'string') : [],
        ...(typeof op['summary'] === 'string' && { summary: op['summary'] }),
        ...(typeof op['description'] === 'string' && { description: op['description'] }),
        deprecated: op['deprecated'] === true,
        parameters,
        ...(isObject(body) && isObject(body['content']) && {
          requestBody: { required: body['required'] === true, ...(typeof body['description'] === 'string' && { description: body['description'] }), content: body['content'] as Record<string, { schema?: unknown }> },
        }),
        responses,
        ...(security !== undefined && { security }),
        at,
      });
    }
  }
  return out;
}

/** Whether `op` (whose derived tool name is `name`) passes one filter. */
export function matches(filter: OperationFilter, op: OpenApiOperation, name: string): boolean {
  if (typeof filter === 'function') return filter(op);
  if (filter.operations !== undefined && !filter.operations.includes(op.operationId ?? name) && !filter.operations.includes(name)) return false;
  if (filter.tags !== undefined && !op.tags.some((t) => filter.tags!.includes(t))) return false;
  if (filter.methods !== undefined && !filter.methods.some((m) => m.toLowerCase() === op.method)) return false;
  if (filter.paths !== undefined && !filter.paths.some((p) => (typeof p === 'string' ? p === op.path : p.test(op.path)))) return false;
  return true;
}
