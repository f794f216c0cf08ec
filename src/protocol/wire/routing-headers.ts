import { JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import type { HeaderParam } from '../../registries/header-params.js';
import { McpErrorCode } from './codes.js';

/**
 * 2026-07-28 Streamable HTTP mirrors body fields into headers (`Mcp-Method`,
 * `Mcp-Name`, `Mcp-Param-*`) so intermediaries can route without parsing.
 * A server that reads the body must reject any disagreement: -32020 (HTTP 400).
 */

const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
function mismatch(message: string): JsonRpcProtocolError {
  return new JsonRpcProtocolError(McpErrorCode.HeaderMismatch, `Header mismatch: ${message}`);
}

/** Decodes the `=?base64?…?=` sentinel strictly; anything else is the literal value. */
export function decodeHeaderValue(raw: string, header: string): string {
  const value = raw.trim();
  if (!(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END) && value.length >= SENTINEL_START.length + SENTINEL_END.length)) return value;
  const encoded = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!BASE64.test(encoded)) throw mismatch(`${header} carries malformed Base64 in its =?base64?…?= value`);
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw mismatch(`${header} does not decode to UTF-8 text`);
  }
}

/** Checks `Mcp-Method`, and `Mcp-Name` against the method's routing field (`MethodFacts.routingName`), against the body. */
export function checkStandardHeaders(
  method: string,
  field: 'name' | 'uri' | 'taskId' | undefined,
  params: Record<string, unknown>,
  headers: Readonly<Record<string, string | undefined>>,
): void {
  const headerMethod = headers['mcp-method'];
  if (headerMethod === undefined) throw mismatch(`the Mcp-Method header is required (expected "${method}")`);
  if (headerMethod.trim() !== method) throw mismatch(`Mcp-Method header value '${headerMethod.trim()}' does not match body method '${method}'`);
  if (field === undefined) return;
  const bodyValue = params[field];
  const headerName = headers['mcp-name'];
  if (headerName === undefined) throw mismatch(`the Mcp-Name header is required for ${method} (expected the value of params.${field})`);
  const decoded = decodeHeaderValue(headerName, 'Mcp-Name');
  if (decoded !== bodyValue) throw mismatch(`Mcp-Name header value '${decoded}' does not match body value '${String(bodyValue)}'`);
}

function valueAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = args;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function matches(param: HeaderParam, headerValue: string, bodyValue: unknown): boolean {
  switch (param.type) {
    case 'string':
      return headerValue === bodyValue;
    case 'boolean':
      return headerValue === String(bodyValue) && typeof bodyValue === 'boolean';
    case 'integer':
      return typeof bodyValue === 'number' && headerValue.trim() !== '' && Number(headerValue) === bodyValue;
  }
}

/** Checks every `Mcp-Param-*` a tool declares against the call's arguments. */
export function checkParamHeaders(params: readonly HeaderParam[], args: Record<string, unknown>, headers: Readonly<Record<string, string | undefined>>): void {
  for (const param of params) {
    const raw = headers[param.header];
    const bodyValue = valueAt(args, param.path);
    const display = `Mcp-Param-${param.name}`;
    if (bodyValue === undefined || bodyValue === null) {
      if (raw !== undefined) throw mismatch(`${display} is present but arguments.${param.path.join('.')} is not`);
      continue;
    }
    if (raw === undefined) throw mismatch(`the ${display} header is required because arguments.${param.path.join('.')} is set`);
    const decoded = decodeHeaderValue(raw, display);
    if (!matches(param, decoded, bodyValue)) throw mismatch(`${display} header value '${decoded}' does not match body value '${JSON.stringify(bodyValue)}'`);
  }
}
