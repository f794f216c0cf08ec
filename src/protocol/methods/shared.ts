import type { RequestContext } from '../context.js';
import type { EraInfo } from '../era.js';
import { invalidParams } from '../errors.js';
import type { McpProtocolHandler } from '../handler.js';
import type { ServerCapabilities } from '../types.js';

export interface MethodEntry {
  /** Whether the method exists for this request (era and declared capabilities decide). */
  available(handler: McpProtocolHandler, era: EraInfo): boolean;
  handle(params: Record<string, unknown>, context: RequestContext, handler: McpProtocolHandler, era: EraInfo): unknown;
  /** A per-request timeout that overrides the server-wide one (tools declare their own). */
  timeoutMs?(handler: McpProtocolHandler, params: Record<string, unknown>): number | undefined;
  /** The result to answer with when the request timed out (instead of an error). */
  onTimeout?(error: Error): unknown;
}

export function capability(handler: McpProtocolHandler, name: keyof ServerCapabilities): boolean {
  return handler.deps.getMetadata().capabilities[name] !== undefined;
}

export const legacyOnly = (_handler: McpProtocolHandler, era: EraInfo): boolean => era.era === 'legacy';
export const modernOnly = (_handler: McpProtocolHandler, era: EraInfo): boolean => era.era === 'modern';

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

/** Copies the listed optional fields that are present. */
export function pick(source: object, keys: readonly string[], target: Record<string, unknown>): Record<string, unknown> {
  const record = source as Record<string, unknown>;
  for (const key of keys) if (record[key] !== undefined) target[key] = record[key];
  return target;
}

/**
 * Derived wire views cached by registry version: nothing is rebuilt per
 * request while the registry is unchanged.
 */
export function cachedView<R extends { version: number }, V>(cache: WeakMap<R, { version: number; view: V }>, registry: R, build: () => V): V {
  const hit = cache.get(registry);
  if (hit?.version === registry.version) return hit.view;
  const view = build();
  cache.set(registry, { version: registry.version, view });
  return view;
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
