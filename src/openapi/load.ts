/**
 * Reading an OpenAPI document: an object, JSON or YAML text, a file or a URL, bounded in bytes,
 * checked for its version. Nothing here resolves references: that happens per operation, lazily
 * (schema.ts), so loading GitHub's 13 MB description costs one JSON.parse.
 */
import type * as YamlModule from 'yaml';
import { OpenApiError } from './errors.js';
import { asciiJsonText, startsWithBrace, unreadValues } from './json-text.js';
import { concatBytes } from '../util/bytes.js';

export type OpenApiSource = string | URL | Record<string, unknown>;

export interface LoadOptions {
  /** Largest document accepted, in bytes (default 32 MiB; GitHub's is 13 MB). */
  maxDocumentBytes?: number;
  /** Used to download a document given by URL (default: the global fetch). */
  fetch?: typeof fetch;
  /** Aborts the download after this long (default 30 s). */
  timeoutMs?: number;
}

export interface OpenApiDocument {
  /** `3.0` or `3.1` (a 3.2 document reads as 3.1: its schemas are JSON Schema 2020-12 too). */
  readonly version: '3.0' | '3.1';
  readonly root: Record<string, unknown>;
  /** Where it came from (file path or URL), for messages. */
  readonly source?: string;
}

export const DEFAULT_MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;
const MAX_DOCUMENT_REDIRECTS = 3;

/** Reads and checks a document. A URL is fetched; a string is JSON or YAML text, or else a file path. */
export function loadOpenApiDocument(source: OpenApiSource, options: LoadOptions = {}): Promise<OpenApiDocument> {
  return load(source, options, false);
}

/**
 * Internal: the document as deriving tools and resources reads it. A JSON file or download is
 * parsed without what that never reads (`webhooks`, `x-webhooks`, `components.examples` come back
 * as null; json-text.ts): 2 of the 7 MB of GitHub's content, parsed, held while the tools are
 * built and collected after, for nothing.
 */
export function loadDocumentForTools(source: OpenApiSource, options: LoadOptions = {}): Promise<OpenApiDocument> {
  return load(source, options, true);
}

async function load(source: OpenApiSource, options: LoadOptions, forTools: boolean): Promise<OpenApiDocument> {
  const limit = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  if (!Number.isSafeInteger(limit) || limit <= 0) throw new OpenApiError(`maxDocumentBytes must be a positive integer (got ${String(limit)})`);
  if (source instanceof URL || (typeof source === 'string' && /^https?:\/\//i.test(source))) {
    const url = new URL(source);
    const text = url.protocol === 'file:' ? await readText(url, limit, forTools) : await downloadText(url, limit, options, forTools);
    return fromText(text, url.protocol === 'file:' ? url.pathname : url.href);
  }
  if (typeof source === 'string') {
    const head = source.trimStart();
    if (head.startsWith('{') || source.includes('\n')) return fromText(source, undefined, limit);
    return fromText(await readText(source, limit, forTools), source);
  }
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    throw new OpenApiError(`an OpenAPI document must be an object, JSON or YAML text, a file path or a URL (got ${source === null ? 'null' : typeof source})`);
  }
  return checked(source, undefined);
}

async function readFile(path: string | URL, limit: number): Promise<Uint8Array> {
  const fs = await import('node:fs/promises');
  let size: number;
  try {
    size = (await fs.stat(path)).size;
  } catch (error) {
    throw new OpenApiError(`cannot read the OpenAPI document ${String(path)}: ${(error as Error).message}`, undefined, { cause: error });
  }
  if (size > limit) throw tooLarge(size, limit);
  return fs.readFile(path);
}

async function download(url: URL, limit: number, options: LoadOptions): Promise<Uint8Array> {
  const fetchFn = options.fetch ?? fetch;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  let current = url;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetchFn(current, { redirect: 'manual', signal, headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' } });
    } catch (error) {
      throw new OpenApiError(`cannot download the OpenAPI document ${current.href}: ${(error as Error).message}`, undefined, { cause: error });
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const next = new URL(location, current);
      if (next.origin !== url.origin) throw new OpenApiError(`the OpenAPI document ${url.href} redirects to another origin (${next.origin}); give that URL instead`);
      if (hop >= MAX_DOCUMENT_REDIRECTS) throw new OpenApiError(`the OpenAPI document ${url.href} redirects more than ${MAX_DOCUMENT_REDIRECTS} times`);
      current = next;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new OpenApiError(`cannot download the OpenAPI document ${current.href}: HTTP ${response.status}`);
    }
    return readBounded(response, limit, () => tooLarge(undefined, limit));
  }
}

/** The response body, stopped (and the connection released) as soon as it passes `limit` bytes. */
export async function readBounded(response: Response, limit: number, onTooLarge: () => Error): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await response.body?.cancel();
    throw onTooLarge();
  }
  if (response.body === null) return new Uint8Array(0);
  // A declared length within the limit is what the body holds (fetch refuses a longer one): read it at once.
  if (declared <= limit) return new Uint8Array(await response.arrayBuffer());
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw onTooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  return concatBytes(chunks, total);
}

function tooLarge(size: number | undefined, limit: number): OpenApiError {
  const got = size === undefined ? 'more than' : `${size.toLocaleString('en')} bytes, more than`;
  return new OpenApiError(`the OpenAPI document is ${got} maxDocumentBytes (${limit.toLocaleString('en')} bytes); raise maxDocumentBytes if it is trusted`);
}

/**
 * A file's text. The bytes are read and decoded here, apart from the parse: nothing refers to them
 * while JSON.parse runs, so the first collection during it frees them (13 MB for GitHub's document).
 */
async function readText(path: string | URL, limit: number, forTools: boolean): Promise<string> {
  return textOf(await readFile(path, limit), forTools);
}

async function downloadText(url: URL, limit: number, options: LoadOptions, forTools: boolean): Promise<string> {
  return textOf(await download(url, limit, options), forTools);
}

/** A file's or download's bytes: JSON read as ASCII text where it can be (json-text.ts), else UTF-8 (a leading BOM dropped). */
function textOf(bytes: Uint8Array, forTools: boolean): string {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const json = startsWithBrace(body);
  const ascii = json ? asciiJsonText(body, (forTools && unreadValues(body)) || []) : undefined;
  return ascii ?? new TextDecoder().decode(body);
}

async function fromText(text: string, source: string | undefined, limit?: number): Promise<OpenApiDocument> {
  if (limit !== undefined && text.length > limit) throw tooLarge(new TextEncoder().encode(text).byteLength, limit);
  const where = source === undefined ? 'the OpenAPI document' : `the OpenAPI document ${source}`;
  let value: unknown;
  if (text.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new OpenApiError(`${where} is not valid JSON: ${(error as Error).message}`, undefined, { cause: error });
    }
  } else {
    value = await parseYaml(text, where);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OpenApiError(`${where} is not an object (an OpenAPI document starts with "openapi: 3.x")`);
  return checked(value as Record<string, unknown>, source);
}

async function parseYaml(text: string, where: string): Promise<unknown> {
  let yaml: typeof YamlModule;
  try {
    yaml = await import('yaml');
  } catch (error) {
    throw new OpenApiError(`${where} is YAML, which needs the optional peer dependency "yaml": npm install yaml (or give the document as JSON)`, undefined, { cause: error });
  }
  try {
    // Aliases are bounded (a "billion laughs" document is refused), duplicate keys are an error.
    return yaml.parse(text, { maxAliasCount: 1000, uniqueKeys: true, merge: true });
  } catch (error) {
    throw new OpenApiError(`${where} is neither valid JSON nor valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`, undefined, { cause: error });
  }
}

function checked(root: Record<string, unknown>, source: string | undefined): OpenApiDocument {
  if (typeof root['swagger'] === 'string') {
    throw new OpenApiError(
      `this is a Swagger ${root['swagger']} document; mcpkit/openapi reads OpenAPI 3.0 and 3.1. Convert it first (for example: npx swagger2openapi in.json -o out.json)`,
    );
  }
  const declared = root['openapi'];
  const version = typeof declared === 'string' ? /^3\.([0-2])\.\d+/.exec(declared)?.[1] : undefined;
  if (version === undefined) {
    throw new OpenApiError(`not an OpenAPI 3.x document: "openapi" is ${declared === undefined ? 'missing' : JSON.stringify(declared)} (expected "3.0.x" or "3.1.x")`);
  }
  if (root['paths'] !== undefined && (typeof root['paths'] !== 'object' || root['paths'] === null || Array.isArray(root['paths']))) {
    throw new OpenApiError('"paths" must be an object', '#/paths');
  }
  return { version: version === '0' ? '3.0' : '3.1', root, ...(source !== undefined && { source }) };
}
