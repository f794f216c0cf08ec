/**
 * 2026-07-28 routing headers a client adds to each HTTP POST: `Mcp-Method`,
 * `Mcp-Name` (the method's routing field, from the method table) and the
 * `Mcp-Param-*` mirrors of a tool's `x-mcp-header` arguments.
 */
import { isPlainObject } from '../jsonrpc/message.js';
import { methodFacts } from '../protocol/methods/table.js';
import type { HeaderParam } from '../registries/header-params.js';

/** Printable ASCII without surrounding spaces travels as is; anything else as `=?base64?…?=`. */
export function encodeHeaderValue(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value) && value.trim() === value) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

export function routingHeaders(method: string, params: Record<string, unknown> | undefined, toolParams: readonly HeaderParam[] | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-method': method };
  const field = methodFacts(method)?.routingName;
  const name = field === undefined || params === undefined ? undefined : params[field];
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  const args = params?.['arguments'];
  if (toolParams !== undefined && isPlainObject(args)) {
    for (const param of toolParams) {
      const value = valueAt(args, param.path);
      if (value === undefined || value === null) continue;
      if (param.type === 'string' && typeof value === 'string') headers[param.header] = encodeHeaderValue(value);
      else if (param.type === 'integer' && typeof value === 'number' && Number.isFinite(value)) headers[param.header] = String(value);
      else if (param.type === 'boolean' && typeof value === 'boolean') headers[param.header] = value ? 'true' : 'false';
    }
  }
  return headers;
}

function valueAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = args;
  for (const key of path) {
    if (!isPlainObject(node)) return undefined;
    node = node[key];
  }
  return node;
}
