/**
 * Registration-time checks shared by the registries: what cannot work is
 * refused when it is registered, with a message that says what to write,
 * instead of failing on every call (or worse, silently not validating).
 */
import { isUriTemplate } from './uri-template.js';

/** A definition that cannot work: a bad name, URI or schema, a missing handler. */
export class RegistrationError extends TypeError {
  override readonly name = 'RegistrationError';
}

export const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** MCP tool names (2025-11-25 spec, "Tool names"): 1 to 128 characters of A-Z a-z 0-9 _ - . */
const TOOL_NAME_CHAR = /[A-Za-z0-9_.-]/;
export const MAX_TOOL_NAME_LENGTH = 128;

export function checkToolName(name: string): void {
  const rules = `a tool name is 1 to ${MAX_TOOL_NAME_LENGTH} characters of A-Z, a-z, 0-9, "_", "-" and "." (MCP tool-name rules; strictToolNames: false lifts this)`;
  if (name.length > MAX_TOOL_NAME_LENGTH) throw new RegistrationError(`Invalid tool name "${name.slice(0, 40)}…" (${name.length} characters): ${rules}`);
  const bad = [...name].findIndex((c) => !TOOL_NAME_CHAR.test(c));
  if (bad >= 0) {
    const c = [...name][bad]!;
    throw new RegistrationError(`Invalid tool name ${JSON.stringify(name)}: ${JSON.stringify(c)} at position ${bad} is not allowed; ${rules}`);
  }
}

/** A tool's input (or output) JSON Schema must describe an object: arguments and structuredContent are JSON objects. */
export function checkObjectSchema(toolName: string, which: 'input' | 'output', jsonSchema: unknown): void {
  if (typeof jsonSchema !== 'object' || jsonSchema === null || Array.isArray(jsonSchema)) {
    throw new RegistrationError(`Tool "${toolName}": its ${which} schema must be a JSON Schema object (got ${kindOf(jsonSchema)})`);
  }
  const type = (jsonSchema as Record<string, unknown>)['type'];
  if (type === 'object') return;
  const has = type === undefined ? 'no "type"' : `type ${JSON.stringify(type)}`;
  const what = which === 'input' ? 'tool arguments are always a JSON object' : 'structuredContent is always a JSON object';
  throw new RegistrationError(
    `Tool "${toolName}": its ${which} schema must describe an object (type: "object" at the root; ${what}), but it has ${has}. ` +
      `Put the value in a property: ${which}: z.object({ value: z.string() }), { value: z.string() }, ` +
      `or { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] }`,
  );
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const UNSAFE = /[\u0000-\u0020\u007f]/;

/** A static resource URI: absolute (with a scheme), no spaces or control characters, not a template. */
export function checkResourceUri(uri: unknown): asserts uri is string {
  if (typeof uri !== 'string' || uri.length === 0) throw new RegistrationError(`A resource needs a non-empty string uri (got ${kindOf(uri)})`);
  if (isUriTemplate(uri)) {
    throw new RegistrationError(`Resource URI ${JSON.stringify(uri)} is a URI template: register it with server.resourceTemplate() (or resources.templates.register())`);
  }
  if (!SCHEME.test(uri)) throw new RegistrationError(`Resource URI ${JSON.stringify(uri)} has no scheme: write an absolute URI such as "file:///${uri}" or "app://${uri}"`);
  if (UNSAFE.test(uri)) throw new RegistrationError(`Resource URI ${JSON.stringify(uri)} contains a space or control character: percent-encode it (a space is %20)`);
}

/** A resource template: has a scheme (or starts with an expression) and at least one expression. */
export function checkTemplateUri(uriTemplate: unknown): asserts uriTemplate is string {
  if (typeof uriTemplate !== 'string' || uriTemplate.length === 0) {
    throw new RegistrationError(`A resource template needs a non-empty string uriTemplate (got ${kindOf(uriTemplate)})`);
  }
  if (!SCHEME.test(uriTemplate) && !uriTemplate.startsWith('{')) {
    throw new RegistrationError(`Resource template ${JSON.stringify(uriTemplate)} has no scheme: write an absolute URI template such as "file:///{path}"`);
  }
  // Syntax errors ("{id" unclosed) are the parser's to report.
  if (!uriTemplate.includes('{')) {
    throw new RegistrationError(`Resource template ${JSON.stringify(uriTemplate)} has no {expression}: register a fixed URI with server.resource() instead`);
  }
}

/** The function a definition runs (`owner[key]`), present. */
export function checkFunction(owner: object, key: string, what: string): void {
  const value: unknown = (owner as Record<string, unknown>)[key];
  if (typeof value !== 'function') throw new RegistrationError(`${what}: ${key} must be a function (got ${kindOf(value)})`);
}
