import type { McpToolResult } from '../wire-types/index.js';
import { isPlainObject } from '../jsonrpc/message.js';
import { withPlainErrors } from '../jsonrpc/plain-errors.js';


/**
 * What a tool handler may return, turned into a CallToolResult:
 * a full result (has `content`, or `structuredContent`), a string (text content),
 * or — when an output schema is declared — a plain object (structured content
 * plus its JSON text). Anything else is serialised as JSON text.
 */
export function toCallToolResult(value: unknown, hasOutputSchema: boolean): McpToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (isPlainObject(value)) {
    if (Array.isArray(value['content'])) return value as McpToolResult;
    if (hasOutputSchema) return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  }
  if (value === undefined) return { content: [] };
  // Numbers, booleans, arrays, objects without an output schema: their JSON text (an Error as its name and message).
  return { content: [{ type: 'text', text: JSON.stringify(withPlainErrors(value)) ?? 'null' }] };
}
