/**
 * Lists: the 2026-07-28 first-page cache (honouring `ttlMs`, dropped on `list_changed`), the
 * iterator over every page, and the catalogue of listed tools (output schema, header params).
 */
import { isPlainObject } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/errors.js';
import type { Era } from '../protocol/wire/method-facts.js';
import { headerParamsOf, type HeaderParam } from '../registries/header-params.js';
import { McpError } from './errors.js';
import type { Json } from './options.js';
import type { McpResult, ToolDescription } from '../wire-types/index.js';

const LIST_CHANGED: Record<string, string[]> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

/** Longest a cache hint is honoured: a day. */
const MAX_TTL_MS = 86_400_000;

export class ListCache {
  readonly #pages = new Map<string, { result: Json; expires: number }>();

  get(method: string): Json | undefined {
    const hit = this.#pages.get(method);
    return hit !== undefined && hit.expires > Date.now() ? hit.result : undefined;
  }

  /** Keeps a first page whose result carries a positive `ttlMs`. */
  keep(method: string, result: Json): void {
    const ttl = result['ttlMs'];
    if (typeof ttl === 'number' && ttl > 0) this.#pages.set(method, { result, expires: Date.now() + Math.min(ttl, MAX_TTL_MS) });
  }

  /** A notification arrived: drop the lists it says changed. */
  notified(method: string): void {
    for (const list of LIST_CHANGED[method] ?? []) this.#pages.delete(list);
  }
}

/** Every item of `field` across pages; a server that repeats a cursor is refused rather than followed forever. */
export async function* allPages<T>(page: (cursor: string | undefined) => Promise<McpResult>, field: string): AsyncGenerator<T> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  do {
    const result = await page(cursor);
    const items = result[field];
    if (Array.isArray(items)) yield* items as T[];
    const next = result['nextCursor'];
    cursor = typeof next === 'string' && next !== '' ? next : undefined;
    if (cursor !== undefined) {
      if (seen.has(cursor)) throw new McpError(`${field} list`, ErrorCode.InternalError, `The server repeated the cursor ${JSON.stringify(cursor.slice(0, 100))}`);
      seen.add(cursor);
    }
  } while (cursor !== undefined);
}

/** Most tools remembered: a server cannot make the client hold more. */
const MAX_TOOLS = 10_000;

export class ToolCatalog {
  readonly #tools = new Map<string, { tool: ToolDescription; headers: readonly HeaderParam[] }>();

  get(name: string): { tool: ToolDescription; headers: readonly HeaderParam[] } | undefined {
    return this.#tools.get(name);
  }

  /** Remembers a listed tool; on 2026-07-28 drops one whose `x-mcp-header` is invalid. False: leave it out. */
  keep(tool: unknown, era: Era | undefined, warn: (message: string) => void): tool is ToolDescription {
    if (!isPlainObject(tool) || typeof tool['name'] !== 'string') {
      warn('tools/list returned an entry without a name; it is left out');
      return false;
    }
    // Named, as checked; the rest is the server's word (a client shows what it was sent).
    const wire = tool as typeof tool & ToolDescription;
    let headers: readonly HeaderParam[] = [];
    try {
      headers = headerParamsOf(wire.name, isPlainObject(wire.inputSchema) ? wire.inputSchema : undefined);
    } catch (error) {
      if (era === 'modern') {
        warn(`${(error as Error).message}; the tool is left out`);
        this.#tools.delete(wire.name);
        return false;
      }
    }
    if (this.#tools.size < MAX_TOOLS || this.#tools.has(wire.name)) this.#tools.set(wire.name, { tool: wire, headers });
    return true;
  }
}
