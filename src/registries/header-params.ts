/**
 * `x-mcp-header` (2026-07-28): tool parameters mirrored into `Mcp-Param-{Name}`
 * HTTP headers. Found and checked once, when the tool is registered: an
 * annotation that breaks the spec's constraints is a composition mistake.
 */

import { isPlainObject } from '../jsonrpc/message.js';

export interface HeaderParam {
  /** The `x-mcp-header` value, as declared. */
  name: string;
  /** Lower-cased full header name: `mcp-param-<name>`. */
  header: string;
  /** The chain of `properties` keys from the schema root. */
  path: readonly string[];
  type: 'string' | 'integer' | 'boolean';
}

export class InvalidHeaderParamError extends Error {
  override readonly name = 'InvalidHeaderParamError';
  constructor(toolName: string, why: string) {
    super(`Tool "${toolName}" has an invalid x-mcp-header annotation: ${why}`);
  }
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;


/** Every place an `x-mcp-header` appears, with whether it is reachable through `properties` keys only. */
function collect(node: unknown, path: string[], static_: boolean, out: { path: string[]; static: boolean; schema: Record<string, unknown> }[], depth: number): void {
  if (depth > 64) return;
  if (Array.isArray(node)) {
    for (const item of node) collect(item, path, false, out, depth + 1);
    return;
  }
  if (!isPlainObject(node)) return;
  if (node['x-mcp-header'] !== undefined) out.push({ path, static: static_, schema: node });
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isPlainObject(value)) {
      for (const [prop, sub] of Object.entries(value)) collect(sub, [...path, prop], static_, out, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      collect(value, path, false, out, depth + 1);
    }
  }
}

export function headerParamsOf(toolName: string, inputSchema: Record<string, unknown> | undefined): readonly HeaderParam[] {
  if (inputSchema === undefined) return [];
  const found: { path: string[]; static: boolean; schema: Record<string, unknown> }[] = [];
  collect(inputSchema, [], true, found, 0);
  const seen = new Set<string>();
  return found.map(({ path, static: isStatic, schema }) => {
    const name = schema['x-mcp-header'];
    if (typeof name !== 'string' || name.length === 0) throw new InvalidHeaderParamError(toolName, 'the value must be a non-empty string');
    if (!TOKEN.test(name)) throw new InvalidHeaderParamError(toolName, `"${name}" is not an HTTP field-name token`);
    if (!isStatic || path.length === 0) {
      throw new InvalidHeaderParamError(toolName, `"${name}" must sit on a property reached through "properties" keys only (not items, $ref, allOf/anyOf/oneOf/not or if/then/else)`);
    }
    const type = schema['type'];
    if (type !== 'string' && type !== 'integer' && type !== 'boolean') {
      throw new InvalidHeaderParamError(toolName, `"${name}" must annotate a string, integer or boolean property (got ${JSON.stringify(type)})`);
    }
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw new InvalidHeaderParamError(toolName, `"${name}" is used twice (names are case-insensitive)`);
    seen.add(lower);
    return { name, header: `mcp-param-${lower}`, path, type };
  });
}
