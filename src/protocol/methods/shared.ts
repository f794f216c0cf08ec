import type { RequestContext } from '../request/context.js';
import type { MessageExtra } from '../connection.js';
import { invalidParams } from '../wire/errors.js';
import { paginate } from '../wire/pagination.js';
import type { MethodContext } from '../scopes/method-context.js';
import type { ServerScope } from '../scopes/server-scope.js';
import type { RecordChange, SessionScope } from '../scopes/session-scope.js';
import type { ServerCapabilities } from '../../wire-types/index.js';
import type { MethodFacts } from '../wire/method-facts.js';
import type { McpProviderListKind } from '../../registries/catalog.js';
import { isThenable } from '../../util/thenable.js';

/**
 * One request method: its facts, what gates it, and its handler. `M`, `P` and
 * `R` are its name, params and result as middleware sees them (`MethodTypes`
 * in `table.ts` is read from the entries that declare them).
 */
export interface RequestMethod<M extends string = string, P = Record<string, unknown>, R = unknown> extends MethodFacts {
  readonly method: M;
  readonly kind: 'request';
  /**
   * The scopes a request needs: those its tool, prompt or resource was
   * registered with (`ConnectionFactory.scopesFor`, which the HTTP auth gate asks).
   */
  scopes?(server: ServerScope, params: Record<string, unknown>): readonly string[] | undefined;
  /** Types only, never set: the params and result middleware sees. */
  readonly types?: { readonly params: P; readonly result: R };
  /** Whether this server offers the method (a capability it declares); absent: always. */
  readonly gate?: (server: ServerScope) => boolean;
  /** Extensions the client must declare in its capabilities to call it (-32021 otherwise). */
  readonly clientExtensions?: readonly string[];
  /** The handler returns `{ result, change }`: the dispatcher applies the change to the session's record. */
  readonly changesRecord?: boolean;
  /** A per-request timeout that overrides the server-wide one (tools declare their own). */
  timeoutMs?(server: ServerScope, params: Record<string, unknown>): number | undefined;
  /** The result to answer with when the request timed out (instead of an error). */
  onTimeout?(error: Error): unknown;
  handle(params: Record<string, unknown>, ctx: MethodContext): unknown;
}

/** What a notification handler receives. */
export interface NotificationContext {
  readonly server: ServerScope;
  readonly session: SessionScope | undefined;
  readonly sessionId: string | undefined;
  readonly extra: MessageExtra;
}

/** One notification the client may send: it never gets an answer, even when handling it fails. */
export interface NotificationMethod extends MethodFacts {
  readonly kind: 'notification';
  handle(params: Record<string, unknown>, ctx: NotificationContext): void | Promise<void>;
}

export type MethodEntry = RequestMethod | NotificationMethod;

/** A record-changing method's outcome: the wire result and the change the dispatcher applies first. */
export interface RecordUpdate {
  readonly result: Record<string, unknown>;
  readonly change: RecordChange | undefined;
}

/** The scopes of the resource (or resource template) `uri` names. */
export function resourceScopes(server: ServerScope, uri: string): readonly string[] | undefined {
  const resources = server.resources;
  const catalog = server.catalog;
  if (catalog !== undefined) return catalog.peekResource(uri)?.scopes;
  const resource = resources.get(uri);
  if (resource !== undefined) return resource.scopes;
  // Too long to be a resource: never matched against the templates (it would be refused anyway).
  if (uri.length > resources.maxUriLength) return undefined;
  return resources.templates.match(uri)?.entry.template.scopes;
}

/** `scopes` of a method that names a tool or prompt in `params.name`, or a resource in `params.uri`. */
export const toolScopes = (server: ServerScope, params: Record<string, unknown>): readonly string[] | undefined =>
  typeof params['name'] === 'string' ? (server.catalog === undefined ? server.tools.get(params['name']) : server.catalog.peekTool(params['name']))?.scopes : undefined;
export const promptScopes = (server: ServerScope, params: Record<string, unknown>): readonly string[] | undefined =>
  typeof params['name'] === 'string' ? (server.catalog === undefined ? server.prompts.get(params['name']) : server.catalog.peekPrompt(params['name']))?.scopes : undefined;
export const uriScopes = (server: ServerScope, params: Record<string, unknown>): readonly string[] | undefined =>
  typeof params['uri'] === 'string' ? resourceScopes(server, params['uri']) : undefined;

/** A gate: the server declares this capability. */
export function declares(name: keyof ServerCapabilities): (server: ServerScope) => boolean {
  return (server) => server.getMetadata().capabilities[name] !== undefined;
}

export function requireString(params: Record<string, unknown>, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') {
    throw invalidParams(`Invalid params: "${key}" must be a string${value === undefined ? ' (it is missing)' : ''}`);
  }
  return value;
}

export function optionalObject(params: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParams(`Invalid params: "${key}" must be an object`);
  return value as Record<string, unknown>;
}

/** Copies the listed optional fields that are present: `target` plus those fields, typed as `source` declares them. */
export function pick<S extends object, K extends keyof S & string, T extends object>(source: S, keys: readonly K[], target: T): T & Partial<Pick<S, K>> {
  const record = source as Record<string, unknown>;
  const out = target as Record<string, unknown>;
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return target;
}

/**
 * One page of a list method's result: the registry's wire view (cached per
 * registry version in the server scope), filtered by the caller's scopes,
 * paginated by `cursor`, under `field` (`tools`, `resources`, …).
 */
export function listPage<T extends { scopes?: readonly string[] }>(
  ctx: MethodContext,
  params: Record<string, unknown>,
  field: string,
  registry: { readonly version: number; list(): readonly T[] },
  wire: (item: T) => object,
): Record<string, unknown> {
  const server = ctx.server;
  const all = permitted(server.view(field, registry.version, undefined, () => registry.list().map(wire)), registry.list(), ctx);
  const { page, nextCursor } = paginate(all, params['cursor'], server.results.pageSize);
  return nextCursor === undefined ? { [field]: page } : { [field]: page, nextCursor };
}

/**
 * `listPage` over the server's catalog when it has providers (the merged list,
 * which may come asynchronously from a proxied upstream), over the registry otherwise.
 */
export function catalogPage<T extends { scopes?: readonly string[] }>(
  ctx: MethodContext,
  params: Record<string, unknown>,
  field: string,
  kind: McpProviderListKind,
  registry: { readonly version: number; list(): readonly T[] },
  wire: (item: T) => object,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const catalog = ctx.server.catalog;
  if (catalog === undefined) return listPage(ctx, params, field, registry, wire);
  const page = (items: readonly T[], cached: boolean): Record<string, unknown> => {
    const server = ctx.server;
    const views = cached ? server.view(field, catalog.version, items, () => items.map(wire)) : items.map(wire);
    const { page: part, nextCursor } = paginate(permitted(views, items, ctx), params['cursor'], server.results.pageSize);
    return nextCursor === undefined ? { [field]: part } : { [field]: part, nextCursor };
  };
  const items = catalog.list(kind, ctx) as unknown as readonly T[] | Promise<readonly T[]>;
  return isThenable(items) ? Promise.resolve(items).then((listed) => page(listed, false)) : page(items, true);
}

/**
 * With `auth.filterLists`, the entries whose `scopes` the caller's token does not
 * grant are left out (views and items are parallel: the view is built from the list).
 */
export function permitted<V>(views: V[], items: readonly { scopes?: readonly string[] }[], context: RequestContext): V[] {
  const access = context.authInfo?.access;
  if (access === undefined || !access.filterLists) return views;
  return views.filter((_, i) => {
    const scopes = items[i]?.scopes;
    return scopes === undefined || access.permits(scopes);
  });
}
