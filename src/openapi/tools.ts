/**
 * The core of mcpkit/openapi, independent of any server: a document becomes a list of tool
 * definitions `{ name, title, description, inputSchema, outputSchema, annotations, call }`.
 * server.ts registers them on an McpServer; a composition provider can serve them as they are.
 */
import { applyCredentials, checkCredentials, securitySchemes, type Applied, type OpenApiCredential, type TokenSources } from './credentials.js';
import { OpenApiError } from './errors.js';
import { send, UpstreamRefusal, type Exchange, type RequestBody, type SendSettings } from './http.js';
import { planInput, type InputPlan } from './input.js';
import type { OpenApiDocument } from './load.js';
import { assignNames, isValidToolName, wantedName } from './names.js';
import { listOperations, matches, type OpenApiOperation, type OperationFilter } from './operations.js';
import { DEFAULT_RESPONSE_HEADERS, MAX_RESPONSE_HEADER_NAMES, toResult, type ToolResult } from './response.js';
import { resourceFor, routerOf, templateFor, type OpenApiResource, type OpenApiResourceTemplate, type OpenApiRoutes } from './resources.js';
import { SchemaConverter, type JsonSchema } from './schema.js';
import { cookiePairs, formBody, headerValue, pathValue, queryPairs } from './serialize.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export interface OpenApiToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** Per-operation changes, keyed by operationId (or derived tool name). */
export interface OpenApiOverride {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly annotations?: OpenApiToolAnnotations;
  /** Leave this operation out. */
  readonly exclude?: boolean;
}

export interface OpenApiToolOptions {
  /** Where requests go: scheme, host, port and a path put in front of every operation path. Requests never leave its origin. */
  readonly baseUrl: string | URL;
  /** Keep only operations that match (every listed criterion; or a function). */
  readonly include?: OperationFilter;
  /** Then drop the operations that match. */
  readonly exclude?: OperationFilter;
  /** Per-operation name, title, description, annotations or exclusion, by operationId (or derived name). */
  readonly overrides?: Readonly<Record<string, OpenApiOverride>>;
  /** Credentials by security scheme name (components.securitySchemes). */
  readonly credentials?: Readonly<Record<string, OpenApiCredential>>;
  /** Headers sent with every request (a User-Agent, an API version). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Per request, redirects included (default 30 000). */
  readonly timeoutMs?: number;
  /** Largest response body read, in bytes (default 5 MiB); a larger one is an error result. */
  readonly maxResponseBytes?: number;
  /** Same-origin redirects followed (default 3); a redirect to another origin is refused. */
  readonly maxRedirects?: number;
  /** Declare `outputSchema` from the JSON 2xx response (default true); the server then checks responses against it. */
  readonly outputSchemas?: boolean;
  /** The fetch used for requests (default: the global fetch). */
  readonly fetch?: typeof fetch;
  /**
   * Which operations become resources instead of tools (default `"tools"`: every operation is a
   * tool). `"resources"`: a GET without parameters or body is a resource and a GET whose only
   * parameters are path parameters is a resource template, at the operation's URL. A function
   * decides per operation, given what `"resources"` would choose; it may only narrow that choice.
   */
  readonly routes?: OpenApiRoutes;
  /**
   * Response headers put in each result's `_meta["mcpkit.openapi/response"].headers`, next to the
   * status (default: DEFAULT_RESPONSE_HEADERS — pagination, rate limits, location, caching);
   * `false` leaves `_meta` out. At most 32 names; values bounded (2 KiB each, 8 KiB in all).
   */
  readonly responseHeaders?: readonly string[] | false;
}

export const TOOL_OPTION_KEYS = keysOf<OpenApiToolOptions>({
  baseUrl: true, include: true, exclude: true, overrides: true, credentials: true, headers: true,
  timeoutMs: true, maxResponseBytes: true, maxRedirects: true, outputSchemas: true, fetch: true,
  responseHeaders: true, routes: true,
});
const OVERRIDE_KEYS = keysOf<OpenApiOverride>({ name: true, title: true, description: true, annotations: true, exclude: true });

/** What a call may carry: the MCP request's cancellation. */
export interface OpenApiCallContext {
  readonly signal?: AbortSignal;
  /**
   * The caller aborts `signal` after the tool's `timeoutMs` itself (a server that registered the
   * tool with that timeout does), so no timer of its own is set for the request.
   */
  readonly timedBySignal?: boolean;
}

export interface OpenApiTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations: OpenApiToolAnnotations;
  readonly operation: OpenApiOperation;
  /** The per-request timeout (`timeoutMs`), for a server to enforce through the call's signal. */
  readonly timeoutMs: number;
  /** Sends the request for these (already validated) arguments; never rejects: failures are `isError` results. */
  call(args: Record<string, unknown>, ctx?: OpenApiCallContext): Promise<ToolResult>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 3;

function annotationsFor(method: string): OpenApiToolAnnotations {
  switch (method) {
    case 'get':
    case 'head':
    case 'options':
    case 'trace':
      return { readOnlyHint: true, openWorldHint: true };
    case 'put':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
    case 'delete':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
    default:
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
  }
}

const positive = (value: number | undefined, key: string, fallback: number, allowZero = false): number => {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) throw new OpenApiError(`${key} must be a ${allowZero ? 'non-negative' : 'positive'} integer (got ${String(value)})`);
  return value;
};

function baseOf(value: string | URL | undefined): URL {
  if (value === undefined) throw new OpenApiError('baseUrl is required: the API origin every request goes to (the document\'s "servers" are never followed on their own)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OpenApiError(`baseUrl ${JSON.stringify(String(value))} is not an absolute URL (e.g. "https://api.example.com/v1")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OpenApiError(`baseUrl must be http: or https: (got ${url.protocol})`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new OpenApiError('baseUrl takes no query, fragment or user:password; put credentials in `credentials` and fixed headers in `headers`');
  }
  return url;
}

/** The documented JSON 2xx response schema: 200, 201, 202, …, then 2XX. */
function successSchema(op: OpenApiOperation): unknown {
  const statuses = Object.keys(op.responses).filter((s) => /^2(\d\d|XX)$/i.test(s)).sort((a, b) => (a.toUpperCase() === '2XX' ? 1 : b.toUpperCase() === '2XX' ? -1 : a.localeCompare(b)));
  for (const status of statuses) {
    const content = op.responses[status]!.content;
    if (content === undefined) continue;
    for (const [type, media] of Object.entries(content)) {
      if (/^application\/(json|[\w.+-]*\+json)\b/i.test(type) && media !== null && typeof media === 'object' && media.schema !== undefined) return media.schema;
    }
  }
  return undefined;
}

function outputFor(op: OpenApiOperation, converter: SchemaConverter): { schema: Record<string, unknown>; mode: 'object' | 'wrapped' } | undefined {
  const raw = successSchema(op);
  if (raw === undefined) return undefined;
  const at = `${op.at}/responses`;
  const uses = new Set<string>();
  const target = converter.target(raw, at);
  const converted = converter.convertShared(target, at, uses);
  if (typeof converted === 'object' && converted['type'] === 'object') return { schema: converter.withDefs(converted, uses) as Record<string, unknown>, mode: 'object' };
  const wrapped = { type: 'object', properties: { result: converted }, required: ['result'] };
  return { schema: converter.withDefs(wrapped, uses) as Record<string, unknown>, mode: 'wrapped' };
}

/**
 * The tools for a loaded document; every kept operation is converted here (errors name the
 * operation). With `routes`, operations routed to resources are not among them: see openApiRoutes.
 */
export function openApiTools(doc: OpenApiDocument, options: OpenApiToolOptions): OpenApiTool[] {
  return openApiRoutes(doc, options).tools;
}

/** Every kept operation as what `routes` makes it: a tool, a resource or a resource template. */
export function openApiRoutes(doc: OpenApiDocument, options: OpenApiToolOptions): { tools: OpenApiTool[]; resources: OpenApiResource[]; templates: OpenApiResourceTemplate[] } {
  refuseUnknownKeys(options, TOOL_OPTION_KEYS, 'openApiTools() options', (m) => new OpenApiError(m));
  const base = baseOf(options.baseUrl);
  const settings: SendSettings = {
    fetch: options.fetch ?? globalFetch,
    origin: base.origin,
    maxRedirects: positive(options.maxRedirects, 'maxRedirects', DEFAULT_MAX_REDIRECTS, true),
    maxResponseBytes: positive(options.maxResponseBytes, 'maxResponseBytes', DEFAULT_MAX_RESPONSE_BYTES),
    timeoutMs: positive(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS),
  };
  const basePath = base.pathname.replace(/\/+$/, '');
  const schemes = securitySchemes(doc.root);
  const credentials = options.credentials ?? {};
  const tokenSources = checkCredentials(credentials, schemes, { base, fetch: settings.fetch, timeoutMs: settings.timeoutMs });
  const fixedHeaders = fixedHeadersOf(options.headers ?? {});
  const responseHeaders = responseHeadersOf(options.responseHeaders);
  const overrides = options.overrides ?? {};
  for (const [key, o] of Object.entries(overrides)) refuseUnknownKeys(o, OVERRIDE_KEYS, `overrides[${JSON.stringify(key)}]`, (m) => new OpenApiError(m));

  const all = listOperations(doc);
  const derived = assignNames(all.map((op) => wantedName(op.operationId, op.method, op.path)));
  const kept: { op: OpenApiOperation; name: string; override: OpenApiOverride | undefined }[] = [];
  const usedOverrides = new Set<string>();
  all.forEach((op, i) => {
    const name = derived[i]!;
    const key = op.operationId !== undefined && Object.hasOwn(overrides, op.operationId) ? op.operationId : Object.hasOwn(overrides, name) ? name : undefined;
    if (key !== undefined) usedOverrides.add(key);
    const override = key === undefined ? undefined : overrides[key];
    if (options.include !== undefined && !matches(options.include, op, name)) return;
    if (options.exclude !== undefined && matches(options.exclude, op, name)) return;
    if (override?.exclude === true) return;
    kept.push({ op, name: override?.name ?? name, override });
  });
  const unknown = Object.keys(overrides).filter((k) => !usedOverrides.has(k));
  if (unknown.length > 0) throw new OpenApiError(`overrides name no operation: ${unknown.map((k) => JSON.stringify(k)).join(', ')} (use an operationId or a derived tool name)`);
  const names = new Set<string>();
  for (const { name } of kept) {
    if (!isValidToolName(name)) throw new OpenApiError(`override name ${JSON.stringify(name)} is not a valid tool name (1 to 128 of A-Z a-z 0-9 _ - .)`);
    if (names.has(name)) throw new OpenApiError(`two operations are named ${JSON.stringify(name)} (an override gives a name another operation has)`);
    names.add(name);
  }

  const setup: CallSetup = { base, basePath, settings, fixedHeaders, credentials, hasCredentials: Object.keys(credentials).length > 0, schemes, tokenSources, responseHeaders };
  const converter = new SchemaConverter(doc.root, doc.version);
  const resources: OpenApiResource[] = [];
  const templates: OpenApiResourceTemplate[] = [];
  const route = routerOf(options.routes);
  const tools = kept.flatMap(({ op, name, override }): OpenApiTool[] => {
    const title = override?.title ?? op.summary;
    const description = override?.description ?? ([op.summary, op.description].filter((s) => s !== undefined && s !== '').join('\n\n') || undefined);
    const chosen = route(op, name);
    if (chosen !== 'tool') {
      const read = readerFor(op, planInput(op, converter), setup);
      const described = { name, ...(title !== undefined && { title }), ...(description !== undefined && { description }) };
      if (chosen === 'resource') resources.push(resourceFor(op, described, `${base.origin}${basePath}${op.path}`, read));
      else templates.push(templateFor(op, described, `${base.origin}${basePath}${op.path}`, read));
      return [];
    }
    const plan = planInput(op, converter);
    const output = options.outputSchemas === false ? undefined : outputFor(op, converter);
    const call = callerFor(op, plan, output?.mode, setup);
    return [{
      name,
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      inputSchema: plan.schema,
      ...(output !== undefined && { outputSchema: output.schema }),
      annotations: { ...annotationsFor(op.method), ...override?.annotations },
      operation: op,
      timeoutMs: settings.timeoutMs,
      call,
    }];
  });
  return { tools, resources, templates };
}

// What a tool or resource keeps is made out here, not in openApiRoutes: a closure made there would hold its
// whole scope (V8 gives a function one context), the converter and through it the parsed document with it.
const globalFetch: typeof fetch = (input, init) => fetch(input, init);

function readerFor(op: OpenApiOperation, plan: InputPlan, setup: CallSetup): (args: Record<string, unknown>, signal: AbortSignal | undefined, timedBySignal: boolean) => Promise<Exchange> {
  return (args, signal, timedBySignal) => exchangeFor(op, plan, args, setup, signal, timedBySignal);
}

function callerFor(op: OpenApiOperation, plan: InputPlan, mode: 'object' | 'wrapped' | undefined, setup: CallSetup): OpenApiTool['call'] {
  return (args, ctx) =>
    callOperation(op, plan, mode, args, setup, ctx?.signal, ctx?.timedBySignal === true).catch((error: unknown) => ({
      isError: true,
      content: [{ type: 'text', text: error instanceof UpstreamRefusal || error instanceof TypeError ? error.message : `request failed: ${String((error as Error)?.message ?? error)}` }],
    }));
}

/**
 * Fixed headers by lower-case name, `accept` defaulted; a plain record is copied per call far cheaper than a Headers.
 * Checked here as Headers would (token names, no CR/LF/NUL in values, outer whitespace trimmed), without making one:
 * the first Headers loads Node's fetch implementation, 60 ms and 10 MB before the first tools/list needs none of it.
 */
function fixedHeadersOf(given: Readonly<Record<string, string>>): Record<string, string> {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new OpenApiError('headers must be an object of header names to string values');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!HEADER_NAME.test(name)) throw new OpenApiError(`headers: ${JSON.stringify(name)} is not a header name`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new OpenApiError(`headers[${JSON.stringify(name)}] must be a string without CR, LF or NUL`);
    const key = name.toLowerCase();
    const trimmed = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    out[key] = Object.hasOwn(out, key) ? `${out[key]}, ${trimmed}` : trimmed;
  }
  out['accept'] ??= 'application/json, */*;q=0.5';
  return out;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

function responseHeadersOf(given: readonly string[] | false | undefined): readonly string[] | undefined {
  if (given === false) return undefined;
  if (given === undefined) return DEFAULT_RESPONSE_HEADERS;
  if (!Array.isArray(given) || given.length > MAX_RESPONSE_HEADER_NAMES) throw new OpenApiError(`responseHeaders must be false or an array of at most ${MAX_RESPONSE_HEADER_NAMES} header names`);
  const names = given.map((name: unknown) => {
    if (typeof name !== 'string' || !HEADER_NAME.test(name)) throw new OpenApiError(`responseHeaders: ${JSON.stringify(name)} is not a header name`);
    return name.toLowerCase();
  });
  return [...new Set(names)];
}

export interface CallSetup {
  readonly base: URL;
  readonly basePath: string;
  readonly settings: SendSettings;
  readonly fixedHeaders: Readonly<Record<string, string>>;
  readonly credentials: Readonly<Record<string, OpenApiCredential>>;
  readonly hasCredentials: boolean;
  readonly tokenSources: TokenSources;
  readonly responseHeaders: readonly string[] | undefined;
  readonly schemes: ReturnType<typeof securitySchemes>;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

async function callOperation(
  op: OpenApiOperation,
  plan: InputPlan,
  output: 'object' | 'wrapped' | undefined,
  args: Record<string, unknown>,
  setup: CallSetup,
  signal: AbortSignal | undefined,
  timedBySignal: boolean,
): Promise<ToolResult> {
  return toResult(await exchangeFor(op, plan, args, setup, signal, timedBySignal), output, setup.responseHeaders);
}

/** Builds and sends the request of `op` for `args`: what tools and resources share. */
export async function exchangeFor(
  op: OpenApiOperation,
  plan: InputPlan,
  args: Record<string, unknown>,
  setup: CallSetup,
  signal: AbortSignal | undefined,
  timedBySignal: boolean,
): Promise<Exchange> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UpstreamRefusal('the arguments must be an object');
  let path = op.path;
  const query: string[] = [];
  const headers: Record<string, string> = { ...setup.fixedHeaders };
  const cookies: string[] = [];
  const bodyFields: Record<string, unknown> = {};
  let body: unknown;
  let hasBody = false;
  for (const b of plan.bindings) {
    const value = args[b.arg];
    if (value === undefined) {
      if (b.in === 'path') throw new UpstreamRefusal(`missing path argument "${b.arg}"`);
      continue;
    }
    switch (b.in) {
      case 'path': {
        const text = pathValue(b.parameter!, value);
        // "." and ".." would be read as dot segments (even encoded) and climb out of the operation path.
        if (/^(\.|%2e){1,2}$/i.test(text)) throw new UpstreamRefusal(`path argument "${b.arg}" may not be "." or ".."`);
        path = path.split(`{${b.name}}`).join(text);
        break;
      }
      case 'query':
        query.push(...queryPairs(b.parameter!, value));
        break;
      case 'header':
        headers[b.name.toLowerCase()] = headerValue(b.parameter!, value);
        break;
      case 'cookie':
        cookies.push(...cookiePairs(b.parameter!, value));
        break;
      case 'body-property':
        bodyFields[b.name] = value;
        hasBody = true;
        break;
      case 'body':
        body = value;
        hasBody = true;
        break;
    }
  }
  let applied: Applied | undefined;
  if (setup.hasCredentials) {
    applied = await applyCredentials(op.security, setup.credentials, setup.schemes, setup.tokenSources, signal);
    query.push(...applied.query);
    cookies.push(...applied.cookies);
    for (const k of Object.keys(applied.headers)) headers[k] = applied.headers[k]!;
  }
  if (cookies.length > 0) headers['cookie'] = cookies.join('; ');

  let payload: RequestBody | undefined;
  const spec = plan.body;
  if (spec !== undefined && (hasBody || op.requestBody?.required === true)) {
    const value = spec.flat ? bodyFields : body;
    switch (spec.kind) {
      case 'json':
        payload = JSON.stringify(value ?? {});
        headers['content-type'] = spec.contentType;
        break;
      case 'form':
        payload = formBody(typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : { body: value });
        headers['content-type'] = spec.contentType;
        break;
      case 'multipart': {
        const form = new FormData();
        const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : { body: value };
        for (const [k, v] of Object.entries(fields)) {
          if (v === undefined) continue;
          if (spec.binaryFields.has(k) && typeof v === 'string') form.append(k, new Blob([fromBase64(v)]), k);
          else form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
        }
        payload = form; // fetch writes the content type with its boundary
        break;
      }
      case 'text':
        payload = typeof value === 'string' ? value : JSON.stringify(value);
        headers['content-type'] = spec.contentType;
        break;
      case 'binary':
        payload = fromBase64(typeof value === 'string' ? value : '');
        headers['content-type'] = spec.contentType;
        break;
    }
  }
  const url = `${setup.base.origin}${setup.basePath}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const exchange = await send(url, { method: op.method.toUpperCase(), headers, ...(payload !== undefined && { body: payload }) }, setup.settings, signal, timedBySignal);
  // A token the API no longer takes (revoked, rotated keys) is not used again: the next call asks for a new one.
  if (exchange.status === 401 && applied !== undefined) for (const { source, token } of applied.tokens) source.invalidate(token);
  return exchange;
}

export type { ToolResult } from './response.js';
export type { JsonSchema };
