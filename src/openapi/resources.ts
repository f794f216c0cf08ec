/**
 * The route map: which operations become resources instead of tools. Only a GET without a body
 * can be one (a read without side effects): without parameters it is a resource at the
 * operation's URL; with only path parameters it is a resource template whose variables are those
 * parameters (`https://api.example.com/pets/{petId}`). Everything else stays a tool.
 */
import { McpResourceNotFoundError } from '../errors/classes.js';
import { UriTemplate } from '../registries/uri-template.js';
import { OpenApiError } from './errors.js';
import { argumentName } from './names.js';
import { UpstreamRefusal, type Exchange } from './http.js';
import type { OpenApiOperation } from './operations.js';
import { ERROR_EXCERPT } from './response.js';

export type OpenApiRoute = 'tool' | 'resource' | 'template';

/** `"tools"` (default), `"resources"`, or a function given what `"resources"` would choose; it may only narrow it (to `"tool"`). */
export type OpenApiRoutes = 'tools' | 'resources' | ((operation: OpenApiOperation, suggested: OpenApiRoute) => OpenApiRoute);

export interface OpenApiReadContext {
  readonly signal?: AbortSignal;
}

/** One content of a read: text for textual media types (JSON included), else base64 `blob`. */
export type OpenApiResourceContent = { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };

interface Described {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
}

export interface OpenApiResource extends Described {
  readonly uri: string;
  readonly mimeType?: string;
  readonly operation: OpenApiOperation;
  /** GETs the operation; a non-2xx answer is an error (404 and 410: resource not found). */
  read(ctx?: OpenApiReadContext): Promise<OpenApiResourceContent[]>;
}

export interface OpenApiResourceTemplate extends Described {
  readonly uriTemplate: string;
  readonly mimeType?: string;
  readonly operation: OpenApiOperation;
  /** The variables, by name, are the path parameters' values. */
  read(uri: string, variables: Record<string, string | string[]>, ctx?: OpenApiReadContext): Promise<OpenApiResourceContent[]>;
}

type Read = (args: Record<string, unknown>, signal: AbortSignal | undefined, timedBySignal: boolean) => Promise<Exchange>;

const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
// RFC 6570 varname characters (without pct-encoded ones): a path parameter named otherwise keeps its tool.
const VARNAME = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;
const TEXTUAL = /^(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|yaml|x-yaml|javascript|problem\+json))/i;

/** What `routes: "resources"` makes of an operation. */
export function suggestedRoute(op: OpenApiOperation): OpenApiRoute {
  if (op.method !== 'get' || op.requestBody !== undefined) return 'tool';
  const parameters = op.parameters.filter((p) => !(p.in === 'header' && IGNORED_HEADERS.has(p.name.toLowerCase())));
  if (parameters.length === 0) return /\{[^}]*\}/.test(op.path) ? 'tool' : 'resource';
  if (!parameters.every((p) => p.in === 'path' && VARNAME.test(p.name) && p.contentType === undefined && (p.style ?? 'simple') === 'simple')) return 'tool';
  const inPath = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  if (inPath.length !== parameters.length || !parameters.every((p) => inPath.includes(p.name))) return 'tool';
  try {
    new UriTemplate(op.path);
  } catch {
    return 'tool';
  }
  return 'template';
}

export function routerOf(routes: OpenApiRoutes | undefined): (op: OpenApiOperation, name: string) => OpenApiRoute {
  if (routes === undefined || routes === 'tools') return () => 'tool';
  if (routes === 'resources') return suggestedRoute;
  if (typeof routes !== 'function') throw new OpenApiError(`routes must be "tools", "resources" or a function (got ${JSON.stringify(routes)})`);
  return (op, name) => {
    const suggested = suggestedRoute(op);
    const chosen = routes(op, suggested);
    if (chosen === 'tool' || chosen === suggested) return chosen;
    throw new OpenApiError(
      `routes: operation ${JSON.stringify(name)} (${op.method.toUpperCase()} ${op.path}) cannot be a ${chosen === 'resource' ? 'resource' : chosen === 'template' ? 'resource template' : JSON.stringify(chosen)}; ` +
        `it can be ${suggested === 'tool' ? 'only a tool' : `a tool or a ${suggested === 'resource' ? 'resource' : 'resource template'}`} (a resource is a GET without parameters or body, a template a GET with only path parameters)`,
      op.at,
    );
  };
}

/** The first media type of the first documented 2xx response. */
function mimeTypeOf(op: OpenApiOperation): string | undefined {
  for (const status of Object.keys(op.responses).sort()) {
    if (!/^2(\d\d|XX)$/i.test(status)) continue;
    const content = op.responses[status]!.content;
    const type = content === undefined ? undefined : Object.keys(content)[0];
    if (type !== undefined && !type.includes('*')) return type;
  }
  return undefined;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const decoder = new TextDecoder();

async function contents(uri: string, read: () => Promise<Exchange>, fallbackType: string | undefined): Promise<OpenApiResourceContent[]> {
  let exchange: Exchange;
  try {
    exchange = await read();
  } catch (error) {
    if (error instanceof UpstreamRefusal || error instanceof TypeError) throw new Error(`reading ${uri}: ${error.message}`, { cause: error });
    throw error;
  }
  const { status, bytes } = exchange;
  if (status < 200 || status > 299) {
    const text = decoder.decode(bytes.subarray(0, ERROR_EXCERPT * 4)).slice(0, ERROR_EXCERPT);
    const message = `the API answered HTTP ${status}${exchange.statusText === '' ? '' : ` ${exchange.statusText}`} for ${uri}${text === '' ? '' : `: ${text}`}`;
    if (status === 404 || status === 410) throw new McpResourceNotFoundError(uri, message);
    throw new Error(message);
  }
  const mimeType = exchange.contentType.split(';')[0]!.trim() || fallbackType || 'application/octet-stream';
  return [TEXTUAL.test(mimeType) ? { uri, mimeType, text: decoder.decode(bytes) } : { uri, mimeType, blob: base64(bytes) }];
}

export function resourceFor(op: OpenApiOperation, described: Described, uri: string, read: Read): OpenApiResource {
  const mimeType = mimeTypeOf(op);
  return {
    ...described,
    uri,
    ...(mimeType !== undefined && { mimeType }),
    operation: op,
    read: (ctx) => contents(uri, () => read({}, ctx?.signal, false), mimeType),
  };
}

export function templateFor(op: OpenApiOperation, described: Described, uriTemplate: string, read: Read): OpenApiResourceTemplate {
  const mimeType = mimeTypeOf(op);
  // Argument names of the path parameters (the same names the tool would take).
  const argOf = new Map(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, argumentName(p.name)]));
  return {
    ...described,
    uriTemplate,
    ...(mimeType !== undefined && { mimeType }),
    operation: op,
    read: (uri, variables, ctx) => {
      const args: Record<string, unknown> = {};
      for (const [name, arg] of argOf) {
        const value = variables[name];
        args[arg] = Array.isArray(value) ? value.join(',') : value;
      }
      return contents(uri, () => read(args, ctx?.signal, false), mimeType);
    },
  };
}
